import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { PipesPipe } from "@cdktf/provider-aws/lib/pipes-pipe";
import { Op } from "cdktf";
import { Construct } from "constructs";
import { pipeFilterPatterns } from "@effectively-once/contract";
import { cite, GOVCLOUD_PIPES_SOURCE } from "./aws-limits";
import { keyGrants, logGroupEncryption } from "./encryption";
import { assumeRolePolicy, policyJson, trustedService } from "./iam";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import { ROLE_POLICY_NAME, type PipelineResourceNames } from "./resource-names";
import type { StackArnScope } from "./stack-data";
import { escapeTerraformTemplate } from "./terraform-text";
import type { PipelineWorkflow } from "./workflow";

/** The pipe's own log level: its errors (a target it cannot call, a role it cannot use), not every execution. */
export const PIPE_LOG_LEVEL = "ERROR";

/** The pipe: polls the queue in batches and waits for each execution's batchItemFailures. */
export class PipelinePipe extends Construct {
  readonly pipe: PipesPipe;
  readonly role: IamRole;
  /** Where the pipe writes its own errors (`ERROR` level, no execution data). */
  readonly logGroup: CloudwatchLogGroup;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: { names: PipelineResourceNames; queues: PipelineQueues; workflow: PipelineWorkflow; arns: StackArnScope }) {
    super(scope, id);
    const name = parts.names.pipe;
    this.logGroup = new CloudwatchLogGroup(this, "logs", { name: parts.names.pipeLogGroup, retentionInDays: p.logRetentionDays, ...logGroupEncryption(p.encryption) });
    this.role = new IamRole(this, "role", { name: parts.names.pipeRole, assumeRolePolicy: assumeRolePolicy(trustedService.pipes(parts.arns, name)), permissionsBoundary: p.permissionsBoundary });
    const policy = new IamRolePolicy(this, "policy", {
      name: ROLE_POLICY_NAME,
      role: this.role.id,
      policy: policyJson([
        {
          Sid: "ReadSource",
          Effect: "Allow",
          Action: ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
          Resource: [parts.queues.queue.arn],
        },
        { Sid: "StartWorkflow", Effect: "Allow", Action: ["states:StartSyncExecution"], Resource: [parts.workflow.stateMachine.arn] },
        // Pipes delivers a CloudWatch Logs destination's records as the pipe's execution role (aws-cdk's
        // CloudwatchLogsLogDestination grants the role exactly these on the group; EventBridge guide, eb-pipes-logs).
        { Sid: "WriteOwnLogs", Effect: "Allow", Action: ["logs:CreateLogStream", "logs:PutLogEvents"], Resource: [`${this.logGroup.arn}:*`] },
        ...keyGrants.pipe(p.encryption, parts.arns),
      ]),
    });
    this.pipe = new PipesPipe(this, "pipe", {
      name,
      roleArn: this.role.arn,
      source: parts.queues.queue.arn,
      target: parts.workflow.stateMachine.arn,
      desiredState: "RUNNING",
      sourceParameters: {
        sqsQueueParameters: { batchSize: p.batchSize, maximumBatchingWindowInSeconds: p.maximumBatchingWindowSeconds },
        // The stack's patterns and, beside them, one that lets a quarantined copy moved back by SQS through (contract's quarantined-copy.ts).
        filterCriteria:
          p.filterPatterns.length > 0 ? { filter: pipeFilterPatterns(p.filterPatterns).map((pattern) => ({ pattern: escapeTerraformTemplate(JSON.stringify(pattern)) })) } : undefined,
      },
      targetParameters: { stepFunctionStateMachineParameters: { invocationType: p.invocationType } },
      // Every field stated: without a log_configuration AWS answers level OFF and an empty list, and the provider plans
      // to remove that block on every plan (hashicorp/terraform-provider-aws issue 42565). Execution data (message
      // bodies) stays out of the logs: an empty list, as AWS reports it.
      logConfiguration: {
        level: PIPE_LOG_LEVEL,
        includeExecutionData: [],
        cloudwatchLogsLogDestination: { logGroupArn: this.logGroup.arn },
      },
      // The role must hold its permissions before the pipe starts polling.
      dependsOn: [policy],
      lifecycle: {
        precondition: [
          {
            // A region the synth could not see (AWS_REGION at plan time) is checked here; a literal one at synth.
            condition: Op.neq(parts.arns.partition, "aws-us-gov"),
            errorMessage: `EventBridge Pipes is not available in AWS GovCloud (US), so this pipeline cannot run there (${cite(GOVCLOUD_PIPES_SOURCE)}).`,
          },
        ],
      },
    });
  }
}
