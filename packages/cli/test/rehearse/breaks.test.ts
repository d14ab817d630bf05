import { BREAKS, findBreak } from "../../src/terraform/rehearse/breaks";
import { rehearsalOverride } from "../../src/terraform/rehearse/override";
import { parseStack, resourceList } from "@effectively-once/local-cloud/terraform-json";
import { resourcesOfType } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

describe("Break tests (the faults merged into the rehearsal's override)", () => {
  let stack: ReturnType<typeof synthStack>;
  let resources: ReturnType<typeof resourceList>;
  beforeAll(() => {
    stack = synthStack();
    resources = resourceList(parseStack(stack.json, "cdk.tf.json"));
  });
  afterAll(() => stack?.cleanup());
  const merged = (name: string) => rehearsalOverride({ endpoint: "http://127.0.0.1:1", statePath: "/s", resources, gaps: [], extra: findBreak(name).fragment(resources) }).resource as Record<string, Record<string, Record<string, unknown>>>;

  it("missing-dlq points only the source queue's redrive policy at a queue that does not exist", () => {
    // Arrange
    const [queue] = resourcesOfType(stack.json, "aws_sqs_queue").find(([id]) => id.includes("queues_queue"))!;
    // Act
    const resource = merged("missing-dlq");
    // Assert
    expect(Object.keys(resource.aws_sqs_queue!)).toEqual([queue]);
    expect(JSON.parse(resource.aws_sqs_queue![queue]!.redrive_policy as string)).toEqual({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:123456789012:no-such-dlq", maxReceiveCount: 5 });
  });

  it("malformed-iam and invalid-json-iam replace only the workflow role's policy", () => {
    const [policy] = resourcesOfType(stack.json, "aws_iam_role_policy").find(([id]) => id.includes("workflow_policy"))!;
    expect(JSON.parse(merged("malformed-iam").aws_iam_role_policy![policy]!.policy as string).Statement[0].Action).toBe("PutItem");
    expect(() => JSON.parse(merged("invalid-json-iam").aws_iam_role_policy![policy]!.policy as string)).toThrow();
  });

  it("every break names resources this stack has", () => {
    for (const b of BREAKS) expect(Object.keys(b.fragment(resources)).length).toBe(1);
  });
});
