/** One mutant of the rendered state machine: a single plausible mistake (mutants.ts, misclassification-mutants.ts). A leaf. */
export interface Mutant {
  readonly id: string;
  readonly description: string;
  readonly apply: (definition: Record<string, unknown>) => Record<string, unknown>;
}
