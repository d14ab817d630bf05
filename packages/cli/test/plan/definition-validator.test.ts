import { request } from "node:http";
import { startDefinitionValidator, type DefinitionValidator } from "../../src/terraform/definition-validator";

function post(endpoint: string, target: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(endpoint, { method: "POST", headers: { "x-amz-target": target, "content-type": "application/x-amz-json-1.0" } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("Class: DefinitionValidator (local ValidateStateMachineDefinition)", () => {
  let validator: DefinitionValidator;
  beforeAll(async () => {
    validator = await startDefinitionValidator();
  });
  afterAll(() => validator.close());

  const TARGET = "AWSStepFunctions.ValidateStateMachineDefinition";
  const valid = { StartAt: "Done", States: { Done: { Type: "Succeed" } } };

  it("listens on 127.0.0.1 only", () => {
    expect(validator.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers OK for a valid definition and counts the call", async () => {
    const before = validator.calls;
    const { status, json } = await post(validator.endpoint, TARGET, { definition: JSON.stringify(valid), type: "EXPRESS" });
    expect(status).toBe(200);
    expect(json).toEqual({ result: "OK", diagnostics: [], truncated: false });
    expect(validator.calls).toBe(before + 1);
  });

  it("answers FAIL with diagnostics for a definition AWS would reject", async () => {
    const { json } = await post(validator.endpoint, TARGET, { definition: JSON.stringify({ ...valid, StartAt: "Missing" }) });
    expect(json.result).toBe("FAIL");
    expect(json.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ severity: "ERROR", code: "MISSING_TRANSITION_TARGET" })]));
    expect((await post(validator.endpoint, TARGET, { definition: "{not json" })).json.result).toBe("FAIL");
  });

  it("refuses every other call with an error naming it", async () => {
    const { status, json } = await post(validator.endpoint, "AWSStepFunctions.DescribeStateMachine", {});
    expect(status).toBe(400);
    expect(json.message).toContain("AWSStepFunctions.DescribeStateMachine is not available in an offline plan");
  });
});
