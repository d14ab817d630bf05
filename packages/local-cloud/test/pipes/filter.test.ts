import { PipeConfigError } from "@effectively-once/contract/pipe-filter";
import { compileFilterCriteria } from "@effectively-once/contract/pipe-filter";
import { makeRecord } from "./support/records";

const jsonRecord = makeRecord({ body: '{"type":"order","amount":42,"customer":{"tier":"gold"}}' });
const plainRecord = makeRecord({ body: "hello world" });
const filterOf = (...patterns: object[]) => compileFilterCriteria({ Filters: patterns.map((p) => ({ Pattern: JSON.stringify(p) })) });

describe("Function: compileFilterCriteria", () => {
  it("lets every record through without criteria or with an empty Filters list", () => {
    expect(compileFilterCriteria(undefined)(plainRecord)).toBe(true);
    expect(compileFilterCriteria({ Filters: [] })(plainRecord)).toBe(true);
  });

  it("matches a JSON body as parsed JSON (data properties), nested objects included", () => {
    const filter = filterOf({ body: { type: ["order"], customer: { tier: ["gold"] } } });
    expect(filter(jsonRecord)).toBe(true);
    expect(filter(makeRecord({ body: '{"type":"refund","customer":{"tier":"gold"}}' }))).toBe(false);
  });

  it("judges a body nested 20,000 levels deep without overflowing the stack (the pipeline quarantines such a body)", () => {
    const deep = `{"type":"order","deep":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    expect(filterOf({ body: { type: ["order"] } })(makeRecord({ body: deep }))).toBe(true);
    expect(filterOf({ body: { type: ["refund"] } })(makeRecord({ body: deep }))).toBe(false);
  });

  it("matches metadata properties of the record", () => {
    const filter = filterOf({ attributes: { ApproximateReceiveCount: ["1"] } });
    expect(filter(plainRecord)).toBe(true);
    expect(filter(makeRecord({ attributes: { ApproximateReceiveCount: "2" } }))).toBe(false);
  });

  // AWS table "Properly filtering Amazon SQS messages": body format vs pattern format.
  it("filters a plain-string body with a plain-string body pattern", () => {
    const filter = filterOf({ body: [{ prefix: "hello" }] });
    expect(filter(plainRecord)).toBe(true);
    expect(filter(makeRecord({ body: "bye" }))).toBe(false);
  });

  it("drops a plain-string body when the body pattern is JSON", () => {
    expect(filterOf({ body: { type: [{ exists: false }] } })(plainRecord)).toBe(false);
  });

  it("drops a JSON body when the body pattern is a plain string", () => {
    expect(filterOf({ body: [{ "anything-but": "x" }] })(jsonRecord)).toBe(false);
  });

  it("matches only the other fields when the pattern has no body", () => {
    const filter = filterOf({ messageAttributes: { kind: { stringValue: ["a"] } } });
    const withAttribute = makeRecord({
      body: "not json",
      messageAttributes: { kind: { stringValue: "a", stringListValues: [], binaryListValues: [], dataType: "String" } },
    });
    expect(filter(withAttribute)).toBe(true);
    expect(filter(plainRecord)).toBe(false);
  });

  it("passes a record matching any one of several filters (OR)", () => {
    const filter = filterOf({ body: { type: ["refund"] } }, { body: { amount: [{ numeric: [">", 40] }] } });
    expect(filter(jsonRecord)).toBe(true);
    expect(filter(makeRecord({ body: '{"type":"order","amount":1}' }))).toBe(false);
  });

  it("cannot filter on fields the poller adds (eventSourceARN, awsRegion, eventSource)", () => {
    expect(filterOf({ eventSourceARN: [{ prefix: "arn:" }] })(plainRecord)).toBe(false);
    expect(filterOf({ awsRegion: [{ exists: false }] })(plainRecord)).toBe(true);
  });

  it("supports $or, equals-ignore-case and prefix/suffix as Pipes does", () => {
    const filter = filterOf({ $or: [{ body: { type: [{ "equals-ignore-case": "ORDER" }] } }, { body: { type: [{ suffix: "und" }] } }] });
    expect(filter(jsonRecord)).toBe(true);
  });

  it.each([
    ["anything-but prefix", { body: { type: [{ "anything-but": { prefix: "x" } }] } }],
    ["anything-but suffix", { body: { type: [{ "anything-but": { suffix: "x" } }] } }],
    ["anything-but equals-ignore-case", { body: { type: [{ "anything-but": { "equals-ignore-case": "x" } }] } }],
    ["anything-but wildcard", { body: { type: [{ "anything-but": { wildcard: "x*" } }] } }],
  ])("refuses %s, which Pipes does not support", (_name, pattern) => {
    expect(() => filterOf(pattern)).toThrow(/Filters\[0\].*does not support/);
  });

  it("names the filter whose pattern is invalid", () => {
    expect(() => compileFilterCriteria({ Filters: [{ Pattern: '{"a":["b"]}' }, { Pattern: '{"a":"b"}' }] })).toThrow(
      new RegExp("Filters\\[1\\]\\.Pattern is not a valid event pattern"),
    );
    expect(() => compileFilterCriteria({ Filters: [{}] })).toThrow(PipeConfigError);
  });
});
