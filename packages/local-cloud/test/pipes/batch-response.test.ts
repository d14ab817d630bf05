import { readBatchResponse } from "../../src/pipes/batch-response";

const ids = new Set(["m1", "m2", "m3"]);

describe("Function: readBatchResponse", () => {
  // AWS "Reporting batch item failures": complete success
  it.each([
    ["an empty batchItemFailures list", { batchItemFailures: [] }],
    ["a null batchItemFailures list", { batchItemFailures: null }],
    ["an empty response (no output)", undefined],
    ["a null response", null],
    ["an empty string response", ""],
    ["an empty object", {}],
    ["the JSON text of an empty list", '{"batchItemFailures":[]}'],
  ])("treats %s as complete success", (_name, output) => {
    expect(readBatchResponse(output, ids)).toEqual({ kind: "all-succeeded" });
  });

  // AWS: complete failure
  it.each([
    ["invalid JSON", "{not json"],
    ["an empty-string itemIdentifier", { batchItemFailures: [{ itemIdentifier: "" }] }],
    ["a null itemIdentifier", { batchItemFailures: [{ itemIdentifier: null }] }],
    ["a bad key name", { batchItemFailures: [{ itemIdentifer: "m1" }] }],
    ["a message id not in the batch", { batchItemFailures: [{ itemIdentifier: "m9" }] }],
    ["batchItemFailures that is not a list", { batchItemFailures: { itemIdentifier: "m1" } }],
    ["an item that is not an object", { batchItemFailures: ["m1"] }],
    ["an output that is a list", [{ itemIdentifier: "m1" }]],
    ["an output that is a number", 42],
  ])("treats %s as complete failure", (_name, output) => {
    expect(readBatchResponse(output, ids).kind).toBe("invalid");
  });

  it("returns the failed ids of a partial failure, parsed value or JSON text", () => {
    const expected = { kind: "partial", failedIds: new Set(["m2", "m3"]) };
    expect(readBatchResponse({ batchItemFailures: [{ itemIdentifier: "m2" }, { itemIdentifier: "m3" }] }, ids)).toEqual(expected);
    expect(readBatchResponse('{"batchItemFailures":[{"itemIdentifier":"m2"},{"itemIdentifier":"m3"},{"itemIdentifier":"m2"}]}', ids)).toEqual(
      expected,
    );
  });
});
