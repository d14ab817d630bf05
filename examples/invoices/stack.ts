import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, type PipelineApp, type PipelineOverrides, type StackConfig } from "@effectively-once/pipeline";
import { INVOICES_DOMAIN } from "./identity";

/** The invoices stack: one issued invoice per `[customerId, invoiceNumber]`, through a stand-in billing system. */
class InvoicesPipelineStack extends TerraformStack {
  constructor(scope: Construct, config: StackConfig, overrides: PipelineOverrides = {}) {
    super(scope, config.stackName);
    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { project: "effectively-once-pipeline", stack: config.stackName } }] });
    const billing = new EffectJournalTable(this, "billing", { namePrefix: config.namePrefix });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    new IdempotentPipeline(this, "pipeline", {
      namePrefix: config.namePrefix,
      ...INVOICES_DOMAIN,
      ...pipelineOverrides,
      function: {
        name: "issue",
        entry: join(__dirname, "functions/handler.ts"),
        environment: billing.environment,
        policyStatements: billing.policyStatements,
        ...functionOverrides,
      },
    });
  }
}

/** What the tools run with `PIPELINE_APP=invoices`. */
export const app: PipelineApp = {
  defaults: { stackName: "invoices-pipeline", namePrefix: "invoices" },
  addStack: (scope, config, overrides) => new InvoicesPipelineStack(scope, config, overrides),
};
