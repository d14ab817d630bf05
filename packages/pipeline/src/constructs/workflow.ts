import { CloudwatchLogGroup } from "@cdktf/provider-aws/lib/cloudwatch-log-group";
import { CloudwatchLogStream } from "@cdktf/provider-aws/lib/cloudwatch-log-stream";
import { IamRole } from "@cdktf/provider-aws/lib/iam-role";
import { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { SfnStateMachine } from "@cdktf/provider-aws/lib/sfn-state-machine";
import { Construct } from "constructs";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import type { DownstreamFunction } from "./downstream-function";
import { serviceNameOf } from "./function-variables";
import { LOG_DELIVERY_ACTIONS, XRAY_ACTIONS, assumeRolePolicy, policyJson, trustedService } from "./iam";
import { definitionParams } from "./definition-params";
import { keyGrants, logGroupEncryption, stateMachineEncryption } from "./encryption";
import type { PolicyStatement } from "./function-props";
import type { ResolvedPipelineProps } from "./props";
import type { PipelineQueues } from "./queues";
import { ROLE_POLICY_NAME, type PipelineResourceNames } from "./resource-names";
import type { StackArnScope } from "./stack-data";
import type { PipelineTables } from "./tables";

/** The DynamoDB operations the workflow calls on the ledger: its grant, and the dashboard's throttle lines. */
export const LEDGER_OPERATIONS = ["PutItem", "GetItem", "UpdateItem", "DeleteItem"] as const;

/**
 * The stream of the workflow's log group that its fate metrics go to: PutLogEvents needs an existing stream and
 * creates none. Beside the streams Step Functions' log delivery makes, in the group the stack already has (no second
 * log group: one name, one retention, one key).
 */
const FATE_METRICS_LOG_STREAM = "fate-metrics";

/** The EXPRESS state machine that claims, invokes, completes or releases, and quarantines. */
export class PipelineWorkflow extends Construct {
  readonly stateMachine: SfnStateMachine;
  readonly role: IamRole;
  readonly logGroup: CloudwatchLogGroup;
  /** The stream of `logGroup` the workflow writes the fates it decides to (EMF documents by PutLogEvents). */
  readonly fateMetricsLogStream: CloudwatchLogStream;

  constructor(
    scope: Construct,
    id: string,
    p: ResolvedPipelineProps,
    parts: { names: PipelineResourceNames; tables: PipelineTables; queues: PipelineQueues; fn: DownstreamFunction; arns: StackArnScope },
  ) {
    super(scope, id);
    const name = parts.names.stateMachine;
    this.logGroup = new CloudwatchLogGroup(this, "logs", {
      name: parts.names.workflowLogGroup,
      retentionInDays: p.logRetentionDays,
      ...logGroupEncryption(p.encryption),
    });
    this.fateMetricsLogStream = new CloudwatchLogStream(this, "fate-metrics", { name: FATE_METRICS_LOG_STREAM, logGroupName: this.logGroup.name });
    // Only this state machine may act through the role; its name is known before it exists, so no reference cycle.
    this.role = new IamRole(this, "role", { name: parts.names.workflowRole, assumeRolePolicy: assumeRolePolicy(trustedService.states(parts.arns, name)), permissionsBoundary: p.permissionsBoundary });
    const statements: PolicyStatement[] = [
      {
        Sid: "Ledger",
        Effect: "Allow",
        Action: LEDGER_OPERATIONS.map((op) => `dynamodb:${op}`),
        Resource: [parts.tables.ledger.arn],
      },
      { Sid: "Downstream", Effect: "Allow", Action: ["lambda:InvokeFunction"], Resource: [parts.fn.function.arn] },
      { Sid: "Quarantine", Effect: "Allow", Action: ["sqs:SendMessage"], Resource: [parts.queues.deadLetterQueue.arn] },
      // PutLogEvents acts on the log stream (CloudWatch Logs' permissions reference): this one stream only.
      { Sid: "FateMetrics", Effect: "Allow", Action: ["logs:PutLogEvents"], Resource: [`${this.logGroup.arn}:log-stream:${FATE_METRICS_LOG_STREAM}`] },
      { Sid: "LogDelivery", Effect: "Allow", Action: [...LOG_DELIVERY_ACTIONS], Resource: ["*"] },
      ...(p.tracing ? [{ Sid: "Tracing", Effect: "Allow" as const, Action: [...XRAY_ACTIONS], Resource: ["*"] }] : []),
      ...keyGrants.workflow(p.encryption, parts.arns, `arn:${parts.arns.partition}:states:${parts.arns.region}:${parts.arns.account}:stateMachine:${name}`),
    ];
    const policy = new IamRolePolicy(this, "policy", { name: ROLE_POLICY_NAME, role: this.role.id, policy: policyJson(statements) });

    const names = { partition: parts.arns.partition, ledgerTableName: parts.tables.ledger.name, functionArn: parts.fn.function.arn, deadLetterQueueUrl: parts.queues.deadLetterQueue.url };
    // Literal names, not references: `dependsOn` below creates the stream before the first execution can write to it.
    const fateMetrics = { logGroupName: parts.names.workflowLogGroup, logStreamName: FATE_METRICS_LOG_STREAM, service: serviceNameOf(p) };
    const definition = renderPipelineDefinition({ ...definitionParams(p, names), fateMetrics });
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
      ...stateMachineEncryption(p.encryption),
      // Created after its role can do what it does: without this the first create races IAM's propagation (the
      // provider's retry covers it today, this does not depend on that).
      dependsOn: [policy, this.fateMetricsLogStream],
    });
  }
}
