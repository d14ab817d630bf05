// The shipments stack as the team's tools run it (effectively-once soak and verify synthesize it with their own
// settings on top): main.ts deploys the same stack.
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { TerraformStack } from "cdktf";
import { join } from "node:path";
import { IdempotentPipeline, type PipelineApp } from "@effectively-once/pipeline";

export const app: PipelineApp = {
  defaults: { stackName: "shipments", namePrefix: "shipments" },
  addStack(scope, config, overrides = {}) {
    const stack = new TerraformStack(scope, config.stackName);
    new AwsProvider(stack, "aws", { region: config.region });
    const { function: functionOverrides, ...pipelineOverrides } = overrides;
    new IdempotentPipeline(stack, "pipeline", {
      namePrefix: config.namePrefix,
      businessKey: { expression: "[carrier, trackingNumber]", requiredFields: ["carrier", "trackingNumber"] },
      operation: "dispatch",
      payloadFields: ["weightGrams", "destination"],
      fieldRules: {
        carrier: { type: "string", pattern: "^[a-z]+$" },
        trackingNumber: { type: "string", maxLength: 40 },
        weightGrams: { type: "integer", minimum: 1, maximum: 70000 },
        destination: { type: "string", minLength: 2 },
      },
      ...pipelineOverrides,
      function: {
        entry: join(__dirname, "functions/dispatch.ts"),
        // The carrier's HTTP API (its labels endpoint honours an Idempotency-Key header); check.ts points it at a local one.
        environment: { CARRIER_URL: process.env.CARRIER_URL ?? "https://api.carrier.example" },
        ...functionOverrides,
      },
    });
    return stack;
  },
};
