/** One mutant of the rendered state machine: a single plausible mistake (mutants/semantic.ts, mutants/misclassification.ts). A leaf. */
export interface Mutant {
  readonly id: string;
  readonly description: string;
  readonly apply: (definition: Record<string, unknown>) => Record<string, unknown>;
  /** What the construct writes beside the definition that the mutant leaves out (mutants/redrive-path.ts). */
  readonly construct?: ConstructMutation;
}

/**
 * Rules outside the state machine that a mutant may drop (a48d984 had none of them): the source queue's
 * RedriveAllowPolicy denyAll, the pipe's filter pattern that lets quarantined copies through, and ops's reading of the
 * deployed function's ids.
 */
export interface ConstructMutation {
  readonly sourceRedriveAllowPolicy?: false;
  readonly quarantinedCopyPattern?: false;
  /**
   * `pipeline-ops` counts the second-layer records of the first deploy's ids whatever is deployed now, as it did when it
   * read them from the stack's outputs (a rollback to 0.2 left outputs naming ids its function never reads).
   */
  readonly opsCountsFirstDeployIds?: true;
}
