import type { IamRolePolicy } from "@cdktf/provider-aws/lib/iam-role-policy";
import { Annotations, TerraformOutput } from "cdktf";
import { Construct } from "constructs";
import { secondLayerOutputs } from "@effectively-once/contract";
import { OutputName, type PipelineOutputName } from "@effectively-once/contract";
import { PipelineAlarms } from "./alarms";
import { PipelineDashboard } from "./dashboard";
import { serviceNameOf } from "./function-variables";
import { DownstreamFunction } from "./downstream-function";
import { groupHoldText } from "./fifo-rules";
import { accountDependentWarnings } from "./function-rules";
import { assertPipelineInvariants } from "./invariants";
import { PipelinePipe } from "./pipe";
import type { IdempotentPipelineProps, ResolvedPipelineProps } from "./props";
import { functionSecondLayerEnvironment, resolveProps } from "./resolve-props";
import { PipelineQueues } from "./queues";
import { pipelineResourceNames } from "./resource-names";
import { replaceRolesBeforeDestroy } from "./role-replacement";
import { claimStackNames } from "./stack-names";
import { stackData } from "./stack-data";
import { PipelineTables } from "./tables";
import { PipelineWorkflow } from "./workflow";
import { escapeTerraformTemplate } from "./terraform-text";
import { passThroughWarnings, STACK_RULES } from "./pass-through-rules";

/**
 * An effectively-once SQS → EventBridge Pipe → Step Functions EXPRESS → Lambda pipeline.
 *
 * Per record the state machine claims the business key with a conditional write to the ledger (no Lambda before
 * the claim), invokes the downstream function (Powertools idempotency on its own table), then completes or
 * releases the claim; invalid, conflicting and rejected messages are quarantined in the DLQ with a reason.
 * Unsafe configurations throw at synth with the prop, the value and the fix.
 */
export class IdempotentPipeline extends Construct {
  /** The props with every default applied, as the parts of the construct read them. */
  readonly config: ResolvedPipelineProps;
  /** The source queue and its dead-letter queue (with the redrive policy, their one policy each, and the declared `producers`). */
  readonly queues: PipelineQueues;
  /** The ledger (business-key claims) and the Powertools idempotency table. */
  readonly tables: PipelineTables;
  /** The downstream function (your handler, bundled with esbuild), its role and log group. */
  readonly downstream: DownstreamFunction;
  /** The EXPRESS state machine, its role and log group. */
  readonly workflow: PipelineWorkflow;
  /** The EventBridge Pipe from the source queue to the state machine, its role and its log group. */
  readonly pipe: PipelinePipe;
  /** The CloudWatch alarms (docs/operations.md, "Alarms"), their SNS topic (unless `alarmActions` is given) and the DLQ keep-alive. */
  readonly alarms: PipelineAlarms;
  /** The CloudWatch dashboard of the pipeline. */
  readonly dashboard: PipelineDashboard;

  constructor(scope: Construct, id: string, props: IdempotentPipelineProps) {
    super(scope, id);
    // Partition, region and account of the stack (every ARN and the region output read them), and what the synth
    // knows of the provider (its bindings' version, a literal region) for the rules.
    const { arns, target } = stackData(this);
    this.config = resolveProps(props, target);
    // In a stack also what only a stack has: the handler's file, the provider's settings.
    assertPipelineInvariants(this.config, STACK_RULES);
    const p = this.config;
    for (const warning of [...accountDependentWarnings(p), ...passThroughWarnings(p)]) Annotations.of(this).addWarning(warning);
    // FIFO: how long one failing message can hold its group, in the synth's output (docs/guarantees.md, "Order within a message group (FIFO)").
    if (p.fifo) Annotations.of(this).addInfo(`IdempotentPipeline (FIFO): ${groupHoldText(p)}.`);
    if (props.region !== undefined) {
      Annotations.of(this).addWarning(`IdempotentPipeline: the region prop is deprecated and unused: the pipeline deploys to the provider's region. Remove it (docs/upgrading.md).`);
    }
    // Account-wide names carry the provider's region: the literal when the stack writes one, else data "aws_region".
    const names = pipelineResourceNames(p, { text: arns.region, literal: false });
    // Every pipeline of a stack shares the provider, so its region is one text when comparing names across them.
    claimStackNames(this, { prop: "namePrefix", value: p.namePrefix }, pipelineResourceNames(p, { text: "<region>", literal: false }).all);
    this.queues = new PipelineQueues(this, "queues", p, names, arns.account);
    this.tables = new PipelineTables(this, "tables", p, names);
    this.downstream = new DownstreamFunction(this, "downstream", p, { names, tables: this.tables, arns });
    this.workflow = new PipelineWorkflow(this, "workflow", p, { names, tables: this.tables, queues: this.queues, fn: this.downstream, arns });
    this.pipe = new PipelinePipe(this, "pipe", p, { names, queues: this.queues, workflow: this.workflow, arns });
    this.alarms = new PipelineAlarms(this, "alarms", p, { names, queues: this.queues, tables: this.tables, workflow: this.workflow, fn: this.downstream, pipe: this.pipe, arns });
    const policyOf = (part: Construct) => part.node.findChild("policy") as IamRolePolicy;
    replaceRolesBeforeDestroy([
      { role: this.downstream.role, policy: policyOf(this.downstream), waitingUser: this.downstream.function },
      // The state machine and the pipe depend on their policies already (workflow.ts, pipe.ts).
      { role: this.workflow.role, policy: policyOf(this.workflow) },
      { role: this.pipe.role, policy: policyOf(this.pipe) },
      { role: this.alarms.keepalive.role, policy: policyOf(this.alarms.keepalive), waitingUser: this.alarms.keepalive.schedule },
    ]);
    this.dashboard = new PipelineDashboard(this, "dashboard", arns.region, { names, service: serviceNameOf(p), queues: this.queues, tables: this.tables, workflow: this.workflow, fn: this.downstream });
    this.addOutputs(p, arns.region);
  }

  /**
   * Stable Terraform output names (no construct-path suffix), as `terraform output -json` shows them. Note that
   * `cdktf deploy --outputs-file` nests outputs by construct id instead; `packages/ops/src/outputs-file.ts` reads both.
   * `region` is the stack's region, a reference to `data "aws_region"` (the provider's, wherever it came from).
   */
  private addOutputs(p: ResolvedPipelineProps, region: string): void {
    const outputs: Record<PipelineOutputName, string | number> = {
      [OutputName.Region]: region,
      [OutputName.QueueUrl]: this.queues.queue.url,
      [OutputName.QueueArn]: this.queues.queue.arn,
      [OutputName.DlqUrl]: this.queues.deadLetterQueue.url,
      [OutputName.DlqArn]: this.queues.deadLetterQueue.arn,
      [OutputName.LedgerTable]: this.tables.ledger.name,
      [OutputName.IdempotencyTable]: this.tables.idempotency.name,
      [OutputName.StateMachineArn]: this.workflow.stateMachine.arn,
      [OutputName.FunctionName]: this.downstream.function.functionName,
      [OutputName.PipeArn]: this.pipe.pipe.arn,
      // Subscribe a person to it (docs/operations.md); "" when alarmActions names the actions instead.
      [OutputName.AlarmTopicArn]: this.alarms.topic?.arn ?? "",
      [OutputName.Operation]: p.operation,
      // The contract, for tools that read a message's key and payload as the state machine does (JSON texts).
      [OutputName.BusinessKeyExpression]: p.businessKey.expression,
      [OutputName.BusinessKeyFields]: JSON.stringify(p.businessKey.requiredFields),
      [OutputName.PayloadFields]: JSON.stringify(p.payloadFields),
      // What `ops dlq redrive` needs to tell whether the ledger still remembers a message's key.
      [OutputName.RetentionSeconds]: p.retentionSeconds,
      [OutputName.MessageRetentionSeconds]: p.messageRetentionSeconds,
      [OutputName.DeadLetterRetentionSeconds]: p.deadLetterRetentionSeconds,
      // What `ops dlq redrive` needs to refuse a copy the pipe would drop unprocessed (a JSON list, "[]": none).
      [OutputName.FilterPatterns]: escapeTerraformTemplate(JSON.stringify(p.filterPatterns)),
      // Whose sends are the workflow's own: a DLQ message's SenderId starts with it only when the quarantine wrote it.
      [OutputName.WorkflowRoleId]: this.workflow.role.uniqueId,
      // Where `ops` finds a key's second-layer record: the function's own variables (function-env.ts), not its name.
      ...secondLayerOutputs(functionSecondLayerEnvironment(p)),
    };
    for (const [name, value] of Object.entries(outputs)) {
      new TerraformOutput(this, `output-${name}`, { value }).overrideLogicalId(`${p.outputPrefix}${name}`);
    }
  }
}
