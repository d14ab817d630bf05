import { CloudwatchEventRule } from "@cdktf/provider-aws/lib/cloudwatch-event-rule";
import { CloudwatchEventTarget } from "@cdktf/provider-aws/lib/cloudwatch-event-target";
import type { SnsTopic } from "@cdktf/provider-aws/lib/sns-topic";
import { SnsTopicPolicy } from "@cdktf/provider-aws/lib/sns-topic-policy";
import { Construct } from "constructs";
import type { StackArnScope } from "./stack-data";

/** The SQS calls that edit what keeps a quarantined copy from coming back unseen (docs/guarantees.md, "paths back from the DLQ"). */
const WATCHED_QUEUE_CALLS = ["SetQueueAttributes", "AddPermission", "RemovePermission"] as const;

/**
 * The one path back from the DLQ that AWS cannot refuse and the pipeline cannot always recognise starts with an edit of
 * a queue's attributes: the DLQ given a redrive policy of its own (to a temporary queue, then a message move), or the
 * stack's `Policy` / `RedriveAllowPolicy` changed by hand. This rule hears each such call on the two queues through
 * CloudTrail's "AWS API Call via CloudTrail" events on the default bus and sends it to the alarm topic. AWS delivers
 * those events only while a CloudTrail trail with logging enabled records management events in the account and region
 * (EventBridge User Guide, "AWS service events delivered via AWS CloudTrail"); docs/guarantees.md states the residual
 * risk.
 *
 * The topic's policy keeps SNS's default statement (the account's principals, so CloudWatch's alarms publish as before)
 * and adds EventBridge's service principal for this rule alone (`aws:SourceArn`), as EventBridge's resource-based
 * policies for SNS targets ask (EventBridge User Guide, "Using resource-based policies for Amazon EventBridge").
 */
export class QueueEditAlert extends Construct {
  readonly rule: CloudwatchEventRule;
  readonly topicPolicy: SnsTopicPolicy;

  constructor(scope: Construct, id: string, props: { readonly name: string; readonly queueNames: readonly string[]; readonly topic: SnsTopic; readonly arns: StackArnScope }) {
    super(scope, id);
    const { topic, arns } = props;
    this.rule = new CloudwatchEventRule(this, "rule", {
      name: props.name,
      description: "A call that edits the attributes or permissions of the pipeline's source queue or DLQ (docs/operations.md, \"After a copy is recognised\")",
      eventPattern: JSON.stringify(queueEditPattern(props.queueNames)),
    });
    new CloudwatchEventTarget(this, "target", { rule: this.rule.name, arn: topic.arn });
    this.topicPolicy = new SnsTopicPolicy(this, "topic-policy", {
      arn: topic.arn,
      policy: JSON.stringify({
        Version: "2012-10-17",
        Statement: [
          {
            Sid: "AccountPrincipals",
            Effect: "Allow",
            Principal: { AWS: "*" },
            Action: ["SNS:GetTopicAttributes", "SNS:SetTopicAttributes", "SNS:AddPermission", "SNS:RemovePermission", "SNS:DeleteTopic", "SNS:Subscribe", "SNS:ListSubscriptionsByTopic", "SNS:Publish"],
            Resource: topic.arn,
            Condition: { StringEquals: { "AWS:SourceOwner": arns.account } },
          },
          { Sid: "QueueEditAlert", Effect: "Allow", Principal: { Service: "events.amazonaws.com" }, Action: "sns:Publish", Resource: topic.arn, Condition: { ArnEquals: { "aws:SourceArn": this.rule.arn } } },
        ],
      }),
    });
  }
}

/**
 * The EventBridge pattern: CloudTrail's record of a watched call whose `queueUrl` ends in one of the queues' names (a
 * suffix match, since a console and an SDK may spell the endpoint's host differently).
 */
function queueEditPattern(queueNames: readonly string[]): Record<string, unknown> {
  return {
    source: ["aws.sqs"],
    "detail-type": ["AWS API Call via CloudTrail"],
    detail: {
      eventSource: ["sqs.amazonaws.com"],
      eventName: [...WATCHED_QUEUE_CALLS],
      requestParameters: { queueUrl: queueNames.map((name) => ({ suffix: `/${name}` })) },
    },
  };
}
