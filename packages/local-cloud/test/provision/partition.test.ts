/** The local cloud answers a China stack's data sources offline: partition aws-cn, its region, local ARNs in aws-cn. */
import { TEST_STACK } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { provisionedStack } from "../support/provisioned-stack";

describe("Function: provisionStack (a stack in cn-north-1)", () => {
  const local = provisionedStack(() => synthStack({ tracing: false }, { ...TEST_STACK, region: "cn-north-1" }));

  it("resolves data \"aws_partition\" and data \"aws_region\" without AWS: the definition's integrations and local ARNs are aws-cn", () => {
    const [machine] = local.provisioned.stateMachines;
    expect(machine.arn).toBe("arn:aws-cn:states:cn-north-1:000000000000:stateMachine:test-workflow");
    // One invocation per batch (the default): the claim phase's Claim, the batch's invocation and each record's own.
    const top = (machine.definition as any).States;
    expect(top.ClaimBatch.ItemProcessor.States.Claim.Resource).toBe("arn:aws-cn:states:::dynamodb:putItem");
    expect(top.InvokeBatch.Arguments.FunctionName).toBe("arn:aws-cn:lambda:cn-north-1:000000000000:function:test-charge");
    expect(top.ProcessBatch.ItemProcessor.States.Invoke.Arguments.FunctionName).toBe("arn:aws-cn:lambda:cn-north-1:000000000000:function:test-charge");
    expect(local.provisioned.outputs.region).toBe("cn-north-1");
  });
});
