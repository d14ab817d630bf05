/** The local cloud answers a China stack's data sources offline: partition aws-cn, its region, local ARNs in aws-cn. */
import { join } from "node:path";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { loadStackFile, provisionStack, type ProvisionedStack } from "../../src/provision";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";
import { startDynalite, type Dynalite } from "@effectively-once/testing";
import { TEST_STACK, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

describe("Function: provisionStack (a stack in cn-north-1)", () => {
  let stack: SynthesizedStack;
  let sqsServer: LocalSqs;
  let sqs: SQSClient;
  let dynamo: Dynalite;
  let provisioned: ProvisionedStack;

  beforeAll(async () => {
    stack = synthStack({ tracing: false }, { ...TEST_STACK, region: "cn-north-1" });
    [sqsServer, dynamo] = await Promise.all([startSqs(), startDynalite()]);
    sqs = createSqsClient(sqsServer.endpoint);
    provisioned = await provisionStack(loadStackFile(join(stack.stackDir, "cdk.tf.json")), { sqs, dynamodb: dynamo.client });
  });
  afterAll(async () => {
    sqs?.destroy();
    await Promise.all([sqsServer?.stop(), dynamo?.stop()]);
    stack?.cleanup();
  });

  it("resolves data \"aws_partition\" and data \"aws_region\" without AWS: the definition's integrations and local ARNs are aws-cn", () => {
    const [machine] = provisioned.stateMachines;
    expect(machine.arn).toBe("arn:aws-cn:states:cn-north-1:000000000000:stateMachine:test-workflow");
    // One invocation per batch (the default): the claim phase's Claim, the batch's invocation and each record's own.
    const top = (machine.definition as any).States;
    expect(top.ClaimBatch.ItemProcessor.States.Claim.Resource).toBe("arn:aws-cn:states:::dynamodb:putItem");
    expect(top.InvokeBatch.Arguments.FunctionName).toBe("arn:aws-cn:lambda:cn-north-1:000000000000:function:test-charge");
    expect(top.ProcessBatch.ItemProcessor.States.Invoke.Arguments.FunctionName).toBe("arn:aws-cn:lambda:cn-north-1:000000000000:function:test-charge");
    expect(provisioned.outputs.region).toBe("cn-north-1");
  });
});
