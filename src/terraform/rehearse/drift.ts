import { classifyActions, PlanAction, type JsonObject, type PlanJson } from "../plan-json";

/** One resource the plan would change. */
export interface Drift {
  readonly address: string;
  readonly action: PlanAction;
  /** Top-level attributes that differ or become unknown (empty for create/destroy). */
  readonly attributes: readonly string[];
}

function changedAttributes(before: JsonObject | null, after: JsonObject | null, unknown: unknown): string[] {
  if (!before || !after) return [];
  const marks = (unknown && typeof unknown === "object" ? unknown : {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(after), ...Object.keys(marks)]);
  return [...keys].filter((k) => marks[k] === true || JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null)).sort();
}

/** Every managed resource a plan would touch, with its action: right after an apply, each one is drift. */
export function planDrift(plan: PlanJson): Drift[] {
  return (plan.resource_changes ?? [])
    .filter((rc) => rc.mode === "managed")
    .map((rc) => ({ rc, action: classifyActions(rc.change.actions) }))
    .filter(({ action }) => action !== PlanAction.noop && action !== PlanAction.read)
    .map(({ rc, action }) => ({ address: rc.address, action, attributes: changedAttributes(rc.change.before, rc.change.after, rc.change.after_unknown) }));
}

export function formatDrift(drift: readonly Drift[]): string[] {
  return drift.map((d) => `${d.action} ${d.address}${d.attributes.length ? ` (${d.attributes.join(", ")})` : ""}`);
}

export interface ChangeCheck {
  readonly address: string;
  readonly predicted: PlanAction | "absent";
  readonly actual: PlanAction | "absent";
}

/** Predicted (npm run plan, offline) against actual (terraform against the applied state) actions, per address. */
export function compareActions(predicted: ReadonlyMap<string, PlanAction>, actual: readonly Drift[]): ChangeCheck[] {
  const actualBy = new Map(actual.map((d) => [d.address, d.action]));
  const addresses = new Set([...[...predicted].filter(([, a]) => a !== PlanAction.noop).map(([address]) => address), ...actualBy.keys()]);
  return [...addresses].sort().map((address) => ({ address, predicted: predicted.get(address) ?? "absent", actual: actualBy.get(address) ?? "absent" }));
}
