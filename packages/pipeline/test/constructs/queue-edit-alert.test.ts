import { compileEventPattern, matchesEventPattern } from "@effectively-once/contract/pipe-filter";
import { referenceTo, resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

/** CloudTrail's record of an SQS call as EventBridge delivers it ("AWS API Call via CloudTrail"). */
const cloudTrailEvent = (eventName: string, queueUrl: string) => ({
  source: "aws.sqs",
  "detail-type": "AWS API Call via CloudTrail",
  detail: { eventSource: "sqs.amazonaws.com", eventName, requestParameters: { queueUrl, attributes: { RedrivePolicy: "{}" } } },
});

describe("Construct: IdempotentPipeline's queue edit alert", () => {
  describe("by default (the construct's alarm topic)", () => {
    let stack: SynthesizedStack;
    beforeAll(() => {
      stack = synthStack({});
    });
    afterAll(() => stack.cleanup());

    it("sends CloudTrail's SetQueueAttributes, AddPermission and RemovePermission on either queue to the alarm topic, and nothing else", () => {
      // Arrange
      const [[, rule]] = resourcesOfType(stack.json, "aws_cloudwatch_event_rule");
      const pattern = compileEventPattern(rule.event_pattern as string);
      const matches = (event: object) => matchesEventPattern(pattern, event);
      // Act / Assert: the two queues, by any host spelling; not another queue, not a read.
      expect(rule.name).toBe("test-queue-edits");
      for (const call of ["SetQueueAttributes", "AddPermission", "RemovePermission"]) {
        expect(matches(cloudTrailEvent(call, "https://sqs.us-east-1.amazonaws.com/111122223333/test-dlq"))).toBe(true);
        expect(matches(cloudTrailEvent(call, "https://queue.amazonaws.com/111122223333/test-queue"))).toBe(true);
      }
      expect(matches(cloudTrailEvent("SetQueueAttributes", "https://sqs.us-east-1.amazonaws.com/111122223333/temporary"))).toBe(false);
      expect(matches(cloudTrailEvent("SetQueueAttributes", "https://sqs.us-east-1.amazonaws.com/111122223333/other-test-dlq"))).toBe(false);
      expect(matches(cloudTrailEvent("GetQueueAttributes", "https://sqs.us-east-1.amazonaws.com/111122223333/test-dlq"))).toBe(false);
      const [[, target]] = resourcesOfType(stack.json, "aws_cloudwatch_event_target");
      expect(target.arn).toBe(referenceTo(stack.json, "aws_sns_topic", "test-alarms", "arn"));
    });

    it("lets EventBridge publish for this rule alone, and keeps SNS's default statement for the account (the alarms)", () => {
      const topic = referenceTo(stack.json, "aws_sns_topic", "test-alarms", "arn");
      const [[, body]] = resourcesOfType(stack.json, "aws_sns_topic_policy");
      const policy = JSON.parse(body.policy as string) as { Statement: Record<string, unknown>[] };
      expect(body.arn).toBe(topic);
      expect(policy.Statement).toEqual([
        expect.objectContaining({ Sid: "AccountPrincipals", Principal: { AWS: "*" }, Resource: topic, Condition: { StringEquals: { "AWS:SourceOwner": expect.stringContaining("aws_caller_identity") } } }),
        { Sid: "QueueEditAlert", Effect: "Allow", Principal: { Service: "events.amazonaws.com" }, Action: "sns:Publish", Resource: topic, Condition: { ArnEquals: { "aws:SourceArn": expect.stringMatching(/^\$\{aws_cloudwatch_event_rule\..*\.arn\}$/) } } },
      ]);
      expect(policy.Statement[0].Action).toContain("SNS:Publish");
    });
  });

  it.each([
    ["queueEditAlert: false", { queueEditAlert: false }],
    ["alarmActions given (no topic of the construct's)", { alarmActions: ["arn:aws:sns:us-east-1:111122223333:team-pager"] }],
  ])("leaves the rule and the topic policy out with %s", (_name, overrides) => {
    const stack = synthStack(overrides);
    try {
      expect(resourcesOfType(stack.json, "aws_cloudwatch_event_rule")).toEqual([]);
      expect(resourcesOfType(stack.json, "aws_sns_topic_policy")).toEqual([]);
    } finally {
      stack.cleanup();
    }
  });
});
