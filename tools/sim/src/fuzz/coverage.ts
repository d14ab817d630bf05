/**
 * How much of the state machine a search exercised: the states entered and the transitions taken (`From→To`,
 * `From→(end)` at an end), against every one the definition allows (Next, Default, each Choice rule, each Catch).
 * A transition no run takes is a path of the protocol the search never tried: a mutant there cannot be killed.
 */

type Json = Record<string, unknown>;

const END = "(end)";

export function transitionId(from: string, to: string | undefined): string {
  return `${from}→${to ?? END}`;
}

/** Every transition the definition allows, at any depth (Map item processors, Parallel branches). */
export function possibleTransitions(definition: Json): Set<string> {
  const out = new Set<string>();
  const visit = (program: Json): void => {
    for (const [name, state] of Object.entries((program.States ?? {}) as Record<string, Json>)) {
      if (typeof state.Next === "string") out.add(transitionId(name, state.Next));
      if (state.End === true || state.Type === "Succeed") out.add(transitionId(name, undefined));
      if (typeof state.Default === "string") out.add(transitionId(name, state.Default));
      for (const rule of (state.Choices ?? []) as Json[]) if (typeof rule.Next === "string") out.add(transitionId(name, rule.Next));
      for (const c of (state.Catch ?? []) as Json[]) if (typeof c.Next === "string") out.add(transitionId(name, c.Next));
      if (state.ItemProcessor) visit(state.ItemProcessor as Json);
      for (const branch of (state.Branches ?? []) as Json[]) visit(branch);
    }
  };
  visit(definition);
  return out;
}

/** The states a set of transitions names (both ends, without the end marker). */
export function statesOf(transitions: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const t of transitions) for (const s of t.split("→")) if (s !== END) out.add(s);
  return out;
}

export interface CoverageFigures {
  readonly states: number;
  readonly statesTotal: number;
  readonly transitions: number;
  readonly transitionsTotal: number;
  /** Allowed transitions never taken, for the report. */
  readonly missed: readonly string[];
}

export function coverageOf(definition: Json, taken: ReadonlySet<string>): CoverageFigures {
  const possible = possibleTransitions(definition);
  const hit = [...taken].filter((t) => possible.has(t));
  return {
    states: statesOf(hit).size,
    statesTotal: statesOf(possible).size,
    transitions: hit.length,
    transitionsTotal: possible.size,
    missed: [...possible].filter((t) => !taken.has(t)).sort(),
  };
}
