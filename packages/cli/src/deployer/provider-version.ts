import type { SynthesizedStack } from "@effectively-once/local-cloud/terraform-json";

/**
 * The hashicorp/aws version whose calls resource-actions.ts lists: the one the rehearsal recorded
 * (packages/cli/test/deployer/fixtures/rehearsal-calls.json, made with the stack's required provider, @cdktf/provider-aws 20.1.0).
 * Change it only together with a new recording.
 */
export const RECORDED_PROVIDER_VERSION = "5.100.0";

/** The hashicorp/aws version the stack requires (`terraform.required_providers.aws.version`), when it names one. */
function stackProviderVersion(stack: SynthesizedStack): string | undefined {
  const required = (stack.terraform.required_providers ?? {}) as Record<string, { source?: string; version?: string }>;
  const aws = required.aws;
  return typeof aws?.version === "string" ? aws.version : undefined;
}

/**
 * A warning when the stack's provider is not the recorded one: another provider version may call other APIs (a new
 * read on refresh, a new argument's update call), so the action list may lack one. CDK Terrain's native bindings
 * require hashicorp/aws 6.x (docs/cdk-terrain.md).
 */
export function providerVersionNote(stack: SynthesizedStack): string | undefined {
  const version = stackProviderVersion(stack);
  if (version === undefined || version === RECORDED_PROVIDER_VERSION) return undefined;
  return `the stack requires hashicorp/aws ${version}, but the action list (packages/cli/src/deployer/resource-actions.ts) was recorded with ${RECORDED_PROVIDER_VERSION}: a call that version adds is missing. Re-record with the stack's provider (npx effectively-once rehearse --record-calls …), or watch the first deploy's CloudTrail for AccessDenied.`;
}
