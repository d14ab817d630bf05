// A team's own CDK Terrain app, native: `cdktn` and `@cdktn/provider-aws` imports, the construct from the package's
// `/cdktn` entry. Subscriptions are billed once per [accountId, period]; the side effect writes the team's own table.
import { DynamodbTable } from "@cdktn/provider-aws/lib/dynamodb-table";
import { AwsProvider } from "@cdktn/provider-aws/lib/provider";
import { App, TerraformOutput, TerraformStack } from "cdktn";
import { join } from "node:path";
import { IdempotentPipeline } from "@effectively-once/pipeline/cdktn";

const app = new App();
const stack = new TerraformStack(app, "subscriptions");
new AwsProvider(stack, "aws", { region: "eu-central-1" });
const invoices = new DynamodbTable(stack, "invoices", {
  name: "subscriptions-invoices",
  billingMode: "PAY_PER_REQUEST",
  hashKey: "invoiceId",
  attribute: [{ name: "invoiceId", type: "S" }],
});
new TerraformOutput(stack, "invoices_table_name", { value: invoices.name });
new IdempotentPipeline(stack, "pipeline", {
  namePrefix: "subscriptions",
  businessKey: { expression: "[accountId, period]", requiredFields: ["accountId", "period"] },
  operation: "bill",
  payloadFields: ["plan", "amountCents"],
  fieldRules: {
    accountId: { type: "string", pattern: "^acct-[0-9]+$" },
    period: { type: "string", pattern: "^[0-9]{4}-[0-9]{2}$" },
    plan: { type: "string", minLength: 1 },
    amountCents: { type: "integer", minimum: 1 },
  },
  function: {
    entry: join(__dirname, "functions/bill.ts"),
    // The /cdktn entry's provider (hashicorp/aws 6.66.0) has nodejs24.x; the cdktf entry's (5.100.0) refuses it.
    runtime: "nodejs24.x",
    environment: { INVOICES_TABLE: invoices.name },
    policyStatements: [{ Effect: "Allow", Action: ["dynamodb:PutItem"], Resource: [invoices.arn] }],
  },
});
app.synth();
