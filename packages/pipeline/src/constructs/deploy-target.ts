/**
 * What the synth can know about where the stack goes, besides the props: the provider bindings' version (from the
 * generated classes themselves, so the `/cdktn` entry, built from the same source, reports its own) and the region
 * when the stack's provider names it literally (read by stack-data.ts). Neither is a prop; the rules read them
 * (region-rules.ts, function-rules.ts). A region that comes from the environment at plan time is unknown here:
 * Terraform checks it then (the preconditions in pipe.ts and downstream-function.ts).
 */
export interface DeployTarget {
  /** hashicorp/aws version the provider bindings were generated for (`5.100.0`, `6.66.0`); undefined outside a stack. */
  readonly providerVersion?: string;
  /** The default aws provider's region, when the stack writes it literally. */
  readonly providerRegion?: string;
  /**
   * The default aws provider's `default_tags`, each pair as written (a key or value may be a token); undefined when
   * it sets none or they are a token as a whole. Checked against AWS's tag limits (pass-through-rules.ts).
   */
  readonly providerDefaultTags?: readonly (readonly [string, string])[];
}

/** Outside a stack (the simulation, unit tests): nothing known, nothing refused for it. */
export const UNKNOWN_TARGET: DeployTarget = {};
