/**
 * Whether the deployed stack drifts on a re-plan: `terraform plan` right after the apply must show no change (a
 * pipe without an explicit log configuration reads AWS's default back as a change on every plan, the provider's
 * issue 42565). On the local cloud, which applies no Terraform, the answer is the prediction from the synthesized
 * JSON: no change when the pipe sets its log configuration.
 */
import type { Probe } from "../types";

export const replanProbe: Probe = {
  id: "replan-drift",
  title: "terraform plan after apply (the pipe's logs)",
  protects: "a reviewed plan shows only real changes: npx effectively-once plan's risk flags depend on it",
  needsStack: true,
  calls: (stack) => [{ service: "Terraform", action: "plan -detailed-exitcode", count: 1, resource: stack.config.stackName, why: "read-only refresh of every resource of the probe stack" }],
  async run(context) {
    return { facts: [["terraform plan after apply", await context.replan()]] };
  },
};
