import { classifyActions, PlanAction, type JsonObject, type PlanJson } from "../plan-json";

/** One resource the plan would change. */
export interface Drift {
  readonly address: string;
  readonly action: PlanAction;
  /** Top-level attributes that differ or become unknown (empty for create/destroy). */
  readonly attributes: readonly string[];
  /** `attribute: before → after` for each of them, values cut at 160 characters. */
  readonly details: readonly string[];
}

const shown = (value: unknown): string => {
  const text = value === undefined ? "null" : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

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
    .filter(({ action }) => action !== PlanAction.Noop && action !== PlanAction.Read)
    .map(({ rc, action }) => {
      const attributes = changedAttributes(rc.change.before, rc.change.after, rc.change.after_unknown);
      const marks = (rc.change.after_unknown && typeof rc.change.after_unknown === "object" ? rc.change.after_unknown : {}) as Record<string, unknown>;
      const details = attributes.map((k) => `${k}: ${shown(rc.change.before?.[k])} → ${marks[k] === true ? "(known after apply)" : shown(rc.change.after?.[k])}`);
      return { address: rc.address, action, attributes, details };
    });
}

export function formatDrift(drift: readonly Drift[]): string[] {
  return drift.flatMap((d) => [`${d.action} ${d.address}${d.attributes.length ? ` (${d.attributes.join(", ")})` : ""}`, ...d.details.map((line) => `    ${line}`)]);
}

export interface ChangeCheck {
  readonly address: string;
  readonly predicted: PlanAction | "absent";
  readonly actual: PlanAction | "absent";
}

/** Predicted (npx effectively-once plan, offline) against actual (terraform against the applied state) actions, per address. */
export function compareActions(predicted: ReadonlyMap<string, PlanAction>, actual: readonly Drift[]): ChangeCheck[] {
  const actualBy = new Map(actual.map((d) => [d.address, d.action]));
  const addresses = new Set([...[...predicted].filter(([, a]) => a !== PlanAction.Noop).map(([address]) => address), ...actualBy.keys()]);
  return [...addresses].sort().map((address) => ({ address, predicted: predicted.get(address) ?? "absent", actual: actualBy.get(address) ?? "absent" }));
}
