import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, type PipelineApp, type PipelineOverrides, type StackConfig } from "@effectively-once/pipeline";
import { LEDGER_DOMAIN } from "./identity";

/**
 * The ledger-entries stack in FIFO mode: each account's entries are one message group, applied in send order, each
 * once, for as long as the ledger remembers it (beyond SQS's 5-minute deduplication).
 */
class LedgerEntriesStack extends TerraformStack {
  constructor(scope: Construct, config: StackConfig, overrides: PipelineOverrides = {}) {
    super(scope, config.stackName);
    new AwsProvider(this, "aws", { region: config.region, defaultTags: [{ tags: { project: "effectively-once-pipeline", stack: config.stackName } }] });
    const books = new EffectJournalTable(this, "books", { namePrefix: config.namePrefix });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    new IdempotentPipeline(this, "pipeline", {
      namePrefix: config.namePrefix,
      ...LEDGER_DOMAIN,
      fifo: true,
      ...pipelineOverrides,
      function: {
        name: "post",
        entry: join(__dirname, "functions/handler.ts"),
        environment: books.environment,
        policyStatements: books.policyStatements,
        ...functionOverrides,
      },
    });
  }
}

/** What the tools run with `PIPELINE_APP=ledger-entries`. */
export const app: PipelineApp = {
  defaults: { stackName: "ledger-entries-pipeline", namePrefix: "ledger" },
  addStack: (scope, config, overrides) => new LedgerEntriesStack(scope, config, overrides),
};
