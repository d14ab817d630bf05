// A team's own cdktf app: shipments dispatched once per [carrier, trackingNumber], on the installed package only.
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack } from "cdktf";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline } from "@effectively-once/pipeline";

const app = new App();
const stack = new TerraformStack(app, "shipments");
new AwsProvider(stack, "aws", { region: "eu-west-1" });
// A stand-in for the carrier's API that honours idempotency keys; a real downstream needs only its own permissions.
const carrier = new EffectJournalTable(stack, "carrier", { namePrefix: "shipments" });
new IdempotentPipeline(stack, "pipeline", {
  region: "eu-west-1",
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
    environment: carrier.environment,
    policyStatements: carrier.policyStatements,
  },
});
app.synth();
