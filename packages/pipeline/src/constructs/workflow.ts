import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { SfnStateMachine } from "@cdktf/provider-aws/lib/sfn-state-machine";
import { Construct } from "constructs";
import { renderPipelineDefinition } from "../../statemachines/render";
import type { DownstreamFunction } from "./downstream-function";
import { LOG_DELIVERY_ACTIONS, XRAY_ACTIONS, assumeRolePolicy, policyJson, trustedService, type StackArnScope } from "./iam";
import { invokeTimeoutSeconds, pipelineFieldRules, type PolicyStatement, type ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import type { PipelineTables } from "./tables";

/** The EXPRESS state machine that claims, invokes, completes or releases, and quarantines. */
export class PipelineWorkflow extends Construct {
  readonly stateMachine: SfnStateMachine;
  readonly role: IamRole;
  readonly logGroup: CloudwatchLogGroup;

  constructor(scope: Construct, id: string, p: ResolvedPipelineProps, parts: { tables: PipelineTables; queues: PipelineQueues; fn: DownstreamFunction; arns: StackArnScope }) {
    super(scope, id);
    const name = `${p.namePrefix}-workflow`;
    // The /aws/vendedlogs/ prefix keeps CloudWatch's resource policy small when many workflows log.
    this.logGroup = new CloudwatchLogGroup(this, "logs", {
      name: `/aws/vendedlogs/states/${name}`,
      retentionInDays: p.logRetentionDays,
    });
    this.role = new IamRole(this, "role", { name: `${name}-role`, assumeRolePolicy: assumeRolePolicy(trustedService.states(parts.arns)) });
    const statements: PolicyStatement[] = [
      {
        Sid: "Ledger",
        Effect: "Allow",
        Action: ["dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem"],
        Resource: [parts.tables.ledger.arn],
      },
      { Sid: "Downstream", Effect: "Allow", Action: ["lambda:InvokeFunction"], Resource: [parts.fn.function.arn] },
      { Sid: "Quarantine", Effect: "Allow", Action: ["sqs:SendMessage"], Resource: [parts.queues.deadLetterQueue.arn] },
      { Sid: "LogDelivery", Effect: "Allow", Action: [...LOG_DELIVERY_ACTIONS], Resource: ["*"] },
      ...(p.tracing ? [{ Sid: "Tracing", Effect: "Allow" as const, Action: [...XRAY_ACTIONS], Resource: ["*"] }] : []),
    ];
    new IamRolePolicy(this, "policy", { name: "least-privilege", role: this.role.id, policy: policyJson(statements) });

    const definition = renderPipelineDefinition({
      ledgerTableName: parts.tables.ledger.name,
      functionArn: parts.fn.function.arn,
      deadLetterQueueUrl: parts.queues.deadLetterQueue.url,
      operation: p.operation,
      keyExpression: p.businessKey.expression,
      fieldRules: pipelineFieldRules(p),
      payloadFields: p.payloadFields,
      leaseSeconds: p.leaseSeconds,
      retentionSeconds: p.retentionSeconds,
      executionTimeoutSeconds: p.executionTimeoutSeconds,
      invokeTimeoutSeconds: invokeTimeoutSeconds(p),
      lambdaRetries: p.lambdaRetries,
      maxConcurrency: p.maxConcurrency,
      permanentErrors: p.function.permanentErrors,
      conflictErrors: p.function.conflictErrors,
      ledgerRetry: p.ledgerRetry,
    });
    this.stateMachine = new SfnStateMachine(this, "state-machine", {
      name,
      type: p.stateMachineType,
      roleArn: this.role.arn,
      definition: JSON.stringify(definition),
      loggingConfiguration: {
        level: p.stateMachineLogLevel,
        includeExecutionData: p.includeExecutionDataInLogs,
        logDestination: `${this.logGroup.arn}:*`,
      },
      tracingConfiguration: { enabled: p.tracing },
    });
  }
}
