/**
 * Mutants that cannot change what the pipeline does, each with the one-line argument. A mutant listed here that
 * the proof kills is reported as killed (the list is a claim, the run decides).
 */
export const EQUIVALENT_MUTANTS: Readonly<Record<string, string>> = {};
