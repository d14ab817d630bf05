import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformOutput, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "../../functions/errors";
import { IdempotentPipeline } from "../../src/constructs";
import type { StackConfig } from "../../src/app/config";
import type { PipelineApp, PipelineOverrides } from "../../src/app/example";
import { join } from "node:path";
import { PaymentsDownstream } from "./downstream";
import { PAYMENTS_BUSINESS_KEY, PAYMENTS_FIELD_RULES, PAYMENTS_OPERATION, PAYMENTS_PAYLOAD_FIELDS } from "./identity";

/** The example stack: a payments stream where one charge per `tenantId#orderId` may ever happen. */
export class PaymentsPipelineStack extends TerraformStack {
  readonly pipeline: IdempotentPipeline;
  readonly downstream: PaymentsDownstream;

  constructor(scope: Construct, config: StackConfig, overrides: PipelineOverrides = {}) {
    super(scope, config.stackName);
    new AwsProvider(this, "aws", {
      region: config.region,
      defaultTags: [{ tags: { project: "effectively-once-pipeline", stack: config.stackName } }],
    });
    this.downstream = new PaymentsDownstream(this, "payments-downstream", { namePrefix: config.namePrefix });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    this.pipeline = new IdempotentPipeline(this, "pipeline", {
      region: config.region,
      namePrefix: config.namePrefix,
      businessKey: PAYMENTS_BUSINESS_KEY,
      operation: PAYMENTS_OPERATION,
      payloadFields: PAYMENTS_PAYLOAD_FIELDS,
      fieldRules: PAYMENTS_FIELD_RULES,
      ...pipelineOverrides,
      function: {
        name: "charge",
        entry: join(__dirname, "functions/handler.ts"),
        environment: { EFFECTS_TABLE_NAME: this.downstream.table.name },
        policyStatements: this.downstream.policyStatements,
        permanentErrors: PERMANENT_ERROR_NAMES,
        conflictErrors: CONFLICT_ERROR_NAMES,
        ...functionOverrides,
      },
    });
    new TerraformOutput(this, "effects-table-name", { value: this.downstream.table.name }).overrideLogicalId("effects_table_name");
  }
}

/** What the tools run: `PIPELINE_EXAMPLE=payments` (the default). */
export const app: PipelineApp = {
  defaults: { stackName: "payments-pipeline", namePrefix: "payments" },
  addStack: (scope, config, overrides) => new PaymentsPipelineStack(scope, config, overrides),
};
