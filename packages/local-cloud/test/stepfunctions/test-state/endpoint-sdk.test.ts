/**
 * The local Step Functions endpoint answers the AWS SDK's TestStateCommand at each inspection level, for the four
 * cases a team writes first: a JSONata Pass, a Task with a mocked result, a Task whose mocked error a Catch handles,
 * and a mocked Map addressed with stateName in a whole machine. Errors reach the SDK as its own exception classes.
 */
import { InvalidDefinition, SFNClient, TestStateCommand, ValidationException, type TestStateCommandInput } from "@aws-sdk/client-sfn";
import { decodeBody } from "@effectively-once/contract";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { startStepFunctionsEndpoint, type StepFunctionsEndpoint } from "../../../src/stepfunctions-api";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { parsed, type Parsed } from "./support";
import { CASES, CASE_LEVELS } from "./support-cases";

let endpoint: StepFunctionsEndpoint;
let sfn: SFNClient;

beforeAll(async () => {
  endpoint = await startStepFunctionsEndpoint();
  // AWS's model puts TestState behind the host prefix `sync-`: a local endpoint needs it switched off.
  sfn = new SFNClient({ endpoint: endpoint.endpoint, region: "us-east-1", disableHostPrefix: true, credentials: { accessKeyId: "local", secretAccessKey: "local" } });
});

afterAll(async () => {
  sfn?.destroy();
  await endpoint?.stop();
});

async function send(input: TestStateCommandInput): Promise<Parsed> {
  const { $metadata: _metadata, ...answer } = await sfn.send(new TestStateCommand(input));
  return parsed(answer as never);
}

describe("Local TestState endpoint, AWS SDK v3", () => {
  it.each(CASE_LEVELS)("%s at %s", async (name, inspectionLevel) => {
    const { request, answer } = CASES[name];
    expect(await send({ ...request, inspectionLevel })).toEqual(answer(inspectionLevel));
  });

  it("answers a request error with the SDK's own exception class, AWS's code and message", async () => {
    const noRole = send({ definition: JSON.stringify({ Type: "Task", Resource: "arn:aws:states:::lambda:invoke", End: true }) });
    await expect(noRole).rejects.toBeInstanceOf(ValidationException);
    await expect(noRole).rejects.toMatchObject({ name: "ValidationException", message: "RoleArn must be specified when testing a Task state", $metadata: { httpStatusCode: 400 } });
    const map = send({ definition: JSON.stringify({ Type: "Map", ItemProcessor: { StartAt: "P", States: { P: { Type: "Pass", End: true } } }, End: true }) });
    await expect(map).rejects.toBeInstanceOf(InvalidDefinition);
    await expect(send({ definition: "{}", inspectionLevel: "LOUD" as never })).rejects.toMatchObject({
      name: "ValidationException",
      message: "1 validation error detected: Value 'LOUD' at 'inspectionLevel' failed to satisfy constraint: Member must satisfy enum value set: [INFO, DEBUG, TRACE]",
    });
  });

  it("runs the pipeline's Decode step of the rendered definition, giving the contract's key and payload hash", async () => {
    const body = JSON.stringify({ tenantId: "t-😀", orderId: "o-42", amount: 1250, currency: "EUR" });
    const got = await send({ definition: JSON.stringify(renderPipelineDefinition(PIPELINE_TEST_PARAMS)), stateName: "Decode", input: JSON.stringify({ messageId: "m-1", body }) });
    const expected = await decodeBody(body, { keyExpression: PIPELINE_TEST_PARAMS.keyExpression, rules: PIPELINE_TEST_PARAMS.fieldRules, payloadFields: PIPELINE_TEST_PARAMS.payloadFields });
    expect(got.status).toBe("SUCCEEDED");
    expect(got.output).toMatchObject(expected);
    expect(got.output).toMatchObject({ key: expect.any(String), payloadHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("answers only its actions, and says which it has", async () => {
    const res = await fetch(endpoint.endpoint, { method: "POST", headers: { "x-amz-target": "AWSStepFunctions.StartExecution", "content-type": "application/x-amz-json-1.0" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ __type: "UnknownOperationException", message: expect.stringContaining("AWSStepFunctions.TestState") });
    const bad = await fetch(endpoint.endpoint, { method: "POST", headers: { "x-amz-target": "AWSStepFunctions.TestState" }, body: "{not json" });
    expect(await bad.json()).toMatchObject({ __type: "SerializationException" });
  });
});
