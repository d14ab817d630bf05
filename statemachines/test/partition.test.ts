/** The definition runs in any partition: the local interpreter serves `arn:aws-cn:states:::…` as AWS does in China. */
import aslValidator from "asl-validator";
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { renderPipelineDefinition } from "../src/render";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { sqsRecord, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

describe("pipeline.asl.json in the aws-cn partition", () => {
  let pipeline: PipelineMachine;
  const invoked: string[] = [];
  const lambda: LambdaInvoker = async (req) => {
    invoked.push(req.FunctionName);
    return { StatusCode: 200, Payload: "{}" };
  };
  beforeAll(async () => {
    pipeline = await startPipelineMachine(lambda, { partition: "aws-cn", functionArn: "arn:aws-cn:lambda:cn-north-1:123456789012:function:charge" });
  });
  afterAll(() => pipeline.stop());

  it("renders every integration ARN in that partition, a definition asl-validator accepts", () => {
    const definition = renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, partition: "aws-cn" });
    expect(JSON.stringify(definition).match(/arn:[a-z-]+:states:::/g)).toEqual(Array(7).fill("arn:aws-cn:states:::"));
    expect(aslValidator(definition as never)).toMatchObject({ isValid: true });
  });

  it("claims, invokes and completes through arn:aws-cn: integrations", async () => {
    const run = await pipeline.machine.execute([sqsRecord("m1", JSON.stringify({ tenantId: "t", orderId: "o1", amount: 5, currency: "EUR" }))]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(invoked).toEqual(["arn:aws-cn:lambda:cn-north-1:123456789012:function:charge"]);
    const resources = run.events.filter((e) => e.type === "TaskScheduled").map((e) => (e.details as { resourceType: string; resource: string }).resourceType + ":" + (e.details as { resource: string }).resource);
    expect(resources).toEqual(["dynamodb:putItem", "lambda:invoke", "dynamodb:updateItem"]);
  });
});
