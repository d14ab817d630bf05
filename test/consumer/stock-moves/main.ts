// A team's own FIFO app (fifo: true): a warehouse's stock moves applied once each, per SKU in the order they were
// sent (the SKU is the message group), on the installed package only.
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack } from "cdktf";
import { join } from "node:path";
import { IdempotentPipeline } from "@effectively-once/pipeline";

const app = new App();
const stack = new TerraformStack(app, "stock-moves");
new AwsProvider(stack, "aws", { region: "eu-west-1" });
new IdempotentPipeline(stack, "pipeline", {
  namePrefix: "stock",
  fifo: true,
  businessKey: { expression: "[sku, moveId]", requiredFields: ["sku", "moveId"] },
  operation: "move",
  payloadFields: ["quantity"],
  fieldRules: {
    sku: { type: "string", pattern: "^[A-Z0-9-]+$" },
    moveId: { type: "string", maxLength: 40 },
    quantity: { type: "integer", minimum: -1000, maximum: 1000 },
  },
  function: {
    entry: join(__dirname, "functions/move.ts"),
    // The warehouse's HTTP API (its moves endpoint honours an Idempotency-Key header); check.ts points it at a local one.
    environment: { WAREHOUSE_URL: process.env.WAREHOUSE_URL ?? "https://api.warehouse.example" },
  },
});
app.synth();
