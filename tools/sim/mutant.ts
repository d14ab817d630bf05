/** One mutant of the rendered state machine: a single plausible mistake (mutants.ts, misclassification-mutants.ts). A leaf. */
export interface Mutant {
  readonly id: string;
  readonly description: string;
  readonly apply: (definition: Record<string, unknown>) => Record<string, unknown>;
  /** What the construct writes beside the definition that the mutant leaves out (redrive-path-mutants.ts). */
  readonly construct?: ConstructMutation;
}

/**
 * Rules of the construct outside the state machine that a mutant may drop (a48d984 had neither): the source queue's
 * RedriveAllowPolicy denyAll, and the pipe's filter pattern that lets quarantined copies through.
 */
export interface ConstructMutation {
  readonly sourceRedriveAllowPolicy?: false;
  readonly quarantinedCopyPattern?: false;
}
