// The shipments team's second pipeline, parcel returns, in the same repository: one refund per [carrier,
// returnNumber]. Its side effect writes an effect journal (EffectJournalTable, docs/using-the-package.md), so the
// team's tools can count applications: `npx effectively-once soak --app returns/` runs it. main.ts deploys it.
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformStack } from "cdktf";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, type PipelineApp } from "@effectively-once/pipeline";

export const app: PipelineApp = {
  defaults: { stackName: "returns", namePrefix: "returns" },
  addStack(scope, config, overrides = {}) {
    const stack = new TerraformStack(scope, config.stackName);
    new AwsProvider(stack, "aws", { region: config.region });
    // The refunds' record, honouring idempotency keys: one applied refund per key, every call journaled.
    const refunds = new EffectJournalTable(stack, "refunds", { namePrefix: config.namePrefix });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    new IdempotentPipeline(stack, "pipeline", {
      namePrefix: config.namePrefix,
      businessKey: { expression: "[carrier, returnNumber]", requiredFields: ["carrier", "returnNumber"] },
      operation: "refund",
      payloadFields: ["amountCents", "reason"],
      fieldRules: {
        carrier: { type: "string", pattern: "^[a-z]+$" },
        returnNumber: { type: "string", maxLength: 40 },
        amountCents: { type: "integer", minimum: 1, maximum: 1_000_000 },
        reason: { type: "string", minLength: 2 },
      },
      ...pipelineOverrides,
      function: {
        entry: join(__dirname, "functions/refund.ts"),
        environment: refunds.environment,
        policyStatements: refunds.policyStatements,
        ...functionOverrides,
      },
    });
    return stack;
  },
};
