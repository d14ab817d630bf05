// A team's own cdktf app: shipments dispatched once per [carrier, trackingNumber], on the installed package only.
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack } from "cdktf";
import { join } from "node:path";
import { IdempotentPipeline } from "@effectively-once/pipeline";

const app = new App();
const stack = new TerraformStack(app, "shipments");
new AwsProvider(stack, "aws", { region: "eu-west-1" });
new IdempotentPipeline(stack, "pipeline", {
  namePrefix: "shipments",
  businessKey: { expression: "[carrier, trackingNumber]", requiredFields: ["carrier", "trackingNumber"] },
  operation: "dispatch",
  payloadFields: ["weightGrams", "destination"],
  fieldRules: {
    carrier: { type: "string", pattern: "^[a-z]+$" },
    trackingNumber: { type: "string", maxLength: 40 },
    weightGrams: { type: "integer", minimum: 1, maximum: 70000 },
    destination: { type: "string", minLength: 2 },
  },
  function: {
    entry: join(__dirname, "functions/dispatch.ts"),
    // The carrier's HTTP API (its labels endpoint honours an Idempotency-Key header); check.ts points it at a local one.
    environment: { CARRIER_URL: process.env.CARRIER_URL ?? "https://api.carrier.example" },
  },
});
app.synth();
