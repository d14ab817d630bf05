import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { PipesPipe } from "@cdktf/provider-aws/lib/pipes-pipe";
import { Construct } from "constructs";
import { assumeRolePolicy, policyJson, trustedService, type StackArnScope } from "./iam";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import type { PipelineWorkflow } from "./workflow";

/** The pipe: polls the queue in batches and waits for each execution's batchItemFailures. */
export class PipelinePipe extends Construct {
  readonly pipe: PipesPipe;
  readonly role: IamRole;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: { queues: PipelineQueues; workflow: PipelineWorkflow; arns: StackArnScope }) {
    super(scope, id);
    const name = `${p.namePrefix}-pipe`;
    this.role = new IamRole(this, "role", { name: `${name}-role`, assumeRolePolicy: assumeRolePolicy(trustedService.pipes(parts.arns, name)) });
    const policy = new IamRolePolicy(this, "policy", {
      name: "least-privilege",
      role: this.role.id,
      policy: policyJson([
        {
          Sid: "ReadSource",
          Effect: "Allow",
          Action: ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes"],
          Resource: [parts.queues.queue.arn],
        },
        { Sid: "StartWorkflow", Effect: "Allow", Action: ["states:StartSyncExecution"], Resource: [parts.workflow.stateMachine.arn] },
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
        filterCriteria:
          p.filterPatterns.length > 0 ? { filter: p.filterPatterns.map((pattern) => ({ pattern: JSON.stringify(pattern) })) } : undefined,
      },
      targetParameters: { stepFunctionStateMachineParameters: { invocationType: p.invocationType } },
      // The role must hold its permissions before the pipe starts polling.
      dependsOn: [policy],
    });
  }
}
