import { TerraformOutput } from "cdktf";
import { Construct } from "constructs";
import { secondLayerOutputs } from "../contract/function-env";
import { OutputName, type PipelineOutputName } from "../contract/outputs";
import { PipelineAlarms } from "./alarms";
import { PipelineDashboard } from "./dashboard";
import { DownstreamFunction } from "./downstream-function";
import { stackArnScope } from "./iam";
import { assertPipelineInvariants } from "./invariants";
import { PipelinePipe } from "./pipe";
import { functionSecondLayerEnvironment, resolveProps, type IdempotentPipelineProps, type ResolvedPipelineProps } from "./props";
import { PipelineQueues } from "./queues";
import { PipelineTables } from "./tables";
import { PipelineWorkflow } from "./workflow";

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
  /** The source queue and its dead-letter queue (with the redrive policy). */
  readonly queues: PipelineQueues;
  /** The ledger (business-key claims) and the Powertools idempotency table. */
  readonly tables: PipelineTables;
  /** The downstream function (your handler, bundled with esbuild), its role and log group. */
  readonly downstream: DownstreamFunction;
  /** The EXPRESS state machine, its role and log group. */
  readonly workflow: PipelineWorkflow;
  /** The EventBridge Pipe from the source queue to the state machine, and its role. */
  readonly pipe: PipelinePipe;
  /** The six CloudWatch alarms (DLQ depth, oldest message age, failed and timed-out executions, function errors, pipe failures). */
  readonly alarms: PipelineAlarms;
  /** The CloudWatch dashboard of the pipeline. */
  readonly dashboard: PipelineDashboard;

  constructor(scope: Construct, id: string, props: IdempotentPipelineProps & { readonly region: string }) {
    super(scope, id);
    this.config = resolveProps(props);
    assertPipelineInvariants(this.config);
    const p = this.config;
    this.queues = new PipelineQueues(this, "queues", p);
    this.tables = new PipelineTables(this, "tables", p);
    // Partition, region and account for the roles' trust conditions (confused-deputy guidance).
    const arns = stackArnScope(this, props.region);
    this.downstream = new DownstreamFunction(this, "downstream", p, this.tables, arns);
    this.workflow = new PipelineWorkflow(this, "workflow", p, { tables: this.tables, queues: this.queues, fn: this.downstream, arns });
    this.pipe = new PipelinePipe(this, "pipe", p, { queues: this.queues, workflow: this.workflow, arns });
    this.alarms = new PipelineAlarms(this, "alarms", p, { queues: this.queues, workflow: this.workflow, fn: this.downstream, pipe: this.pipe });
    this.dashboard = new PipelineDashboard(this, "dashboard", p, props.region, { queues: this.queues, tables: this.tables, workflow: this.workflow, fn: this.downstream });
    this.addOutputs(p, props.region);
  }

  /**
   * Stable Terraform output names (no construct-path suffix), as `terraform output -json` shows them. Note that
   * `cdktf deploy --outputs-file` nests outputs by construct id instead; `tools/ops/outputs-file.ts` reads both.
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
      [OutputName.FilterPatterns]: JSON.stringify(p.filterPatterns),
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
