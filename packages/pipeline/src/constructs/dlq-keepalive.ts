import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { SchedulerSchedule } from "@cdktf/provider-aws/lib/scheduler-schedule";
import { Construct } from "constructs";
import { assumeRolePolicy, policyJson, trustedService } from "./iam";
import type { PipelineQueues } from "./queues";
import { ROLE_POLICY_NAME, type PipelineResourceNames } from "./resource-names";
import type { StackArnScope } from "./stack-data";

/** How often the keep-alive calls the DLQ: well inside SQS's six hours of activity. */
const DLQ_KEEPALIVE_RATE = "rate(1 hour)";

/**
 * Keeps the DLQ active, so that SQS keeps publishing its metrics while messages wait in it: a queue counts as active
 * "for up to six hours from the last activity (i.e., any API call)" (SQS Developer Guide, "Monitoring Amazon SQS
 * queues using CloudWatch"). An EventBridge Scheduler schedule calls `GetQueueAttributes` on the DLQ every hour
 * through Scheduler's universal target (`aws-sdk:sqs:getQueueAttributes`): no function, no message read, nothing
 * moved. Its role may call that one action on the DLQ only. 720 calls a month: within Scheduler's free tier.
 */
export class DlqKeepalive extends Construct {
  readonly schedule: SchedulerSchedule;
  readonly role: IamRole;

  constructor(scope: Construct, id: string, parts: { names: PipelineResourceNames; queues: PipelineQueues; arns: StackArnScope; permissionsBoundary?: string }) {
    super(scope, id);
    const name = parts.names.dlqKeepalive;
    this.role = new IamRole(this, "role", {
      name: parts.names.dlqKeepaliveRole,
      assumeRolePolicy: assumeRolePolicy(trustedService.scheduler(parts.arns, name)),
      permissionsBoundary: parts.permissionsBoundary,
    });
    new IamRolePolicy(this, "policy", {
      name: ROLE_POLICY_NAME,
      role: this.role.id,
      policy: policyJson([{ Effect: "Allow", Action: ["sqs:GetQueueAttributes"], Resource: [parts.queues.deadLetterQueue.arn] }]),
    });
    this.schedule = new SchedulerSchedule(this, "schedule", {
      name,
      description: "Keeps the DLQ active so that SQS keeps publishing its metrics while messages wait (docs/operations.md#dlq-depth).",
      scheduleExpression: DLQ_KEEPALIVE_RATE,
      flexibleTimeWindow: { mode: "OFF" },
      target: {
        arn: `arn:${parts.arns.partition}:scheduler:::aws-sdk:sqs:getQueueAttributes`,
        roleArn: this.role.arn,
        input: JSON.stringify({ QueueUrl: parts.queues.deadLetterQueue.url, AttributeNames: ["ApproximateNumberOfMessages"] }),
        retryPolicy: { maximumRetryAttempts: 3, maximumEventAgeInSeconds: 3600 },
      },
    });
  }
}
