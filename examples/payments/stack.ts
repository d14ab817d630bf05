import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, type PipelineApp, type PipelineOverrides, type StackConfig } from "@effectively-once/pipeline";
import { PAYMENTS_DOMAIN } from "./identity";

/** The example stack: a payments stream where one charge per `[tenantId, orderId]` may ever happen. */
class PaymentsPipelineStack extends TerraformStack {
  readonly pipeline: IdempotentPipeline;
  /** The stand-in payments API: an effect journal the function charges through. */
  readonly downstream: EffectJournalTable;

  constructor(scope: Construct, config: StackConfig, overrides: PipelineOverrides = {}) {
    super(scope, config.stackName);
    new AwsProvider(this, "aws", {
      region: config.region,
      defaultTags: [{ tags: { project: "effectively-once-pipeline", stack: config.stackName } }],
    });
    // The journal is kept under the pipeline's key when the stack sets one.
    this.downstream = new EffectJournalTable(this, "payments-downstream", { namePrefix: config.namePrefix, encryption: overrides.encryption });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    this.pipeline = new IdempotentPipeline(this, "pipeline", {
      namePrefix: config.namePrefix,
      ...PAYMENTS_DOMAIN,
      ...pipelineOverrides,
      function: {
        name: "charge",
        entry: join(__dirname, "functions/handler.ts"),
        environment: this.downstream.environment,
        policyStatements: this.downstream.policyStatements,
        ...functionOverrides,
      },
    });
  }
}

/** What the tools run: `PIPELINE_APP=payments` (the default). */
export const app: PipelineApp = {
  defaults: { stackName: "payments-pipeline", namePrefix: "payments" },
  addStack: (scope, config, overrides) => new PaymentsPipelineStack(scope, config, overrides),
};

/** What the deterministic simulation (`npm run sim:search`) runs in process, kept in a light module the simulation reads alone. */
export { simulation } from "./simulation";
