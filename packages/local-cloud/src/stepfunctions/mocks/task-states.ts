/** Names of every Task state of a definition, nested Map and Parallel programs included. */
export function taskStateNames(definition: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (program: unknown): void => {
    const states = (program as { States?: Record<string, Record<string, unknown>> } | undefined)?.States;
    if (!states || typeof states !== "object") return;
    for (const [name, state] of Object.entries(states)) {
      if (state?.Type === "Task") names.add(name);
      visit(state?.ItemProcessor ?? state?.Iterator);
      if (Array.isArray(state?.Branches)) for (const branch of state.Branches) visit(branch);
    }
  };
  visit(definition);
  return names;
}
