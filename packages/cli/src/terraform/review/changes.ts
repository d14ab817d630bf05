import { PlanAction } from "../plan-json";
import { KNOWN_AFTER_APPLY, withoutNames } from "./planned";
import type { Transition } from "./risks";
import type { ConfigurationChanges, IamStatement, ResourceFacts, ResourceSettings, SettingChange, SettingsKind } from "./types";

/** Settings AWS cannot change in place: a change means the resource is destroyed and created again. */
const IMMUTABLE: Partial<Record<SettingsKind, readonly string[]>> = {
  table: ["name", "hashKey", "rangeKey"],
  queue: ["name", "fifo"],
  stateMachine: ["name", "type"],
  logGroup: ["name"],
  function: ["name"],
  pipe: ["name"],
};

const exists = (facts: ResourceFacts) => facts.action !== PlanAction.Destroy;

function settingDiffs(address: string, name: string | null, before: ResourceSettings | undefined, after: ResourceSettings | undefined): SettingChange[] {
  if (!before || !after || before.kind !== after.kind) return [];
  const b = before as unknown as Record<string, SettingChange["before"]>;
  const a = after as unknown as Record<string, SettingChange["after"]>;
  return Object.keys(a)
    .filter((key) => key !== "kind" && withoutNames(b[key]) !== withoutNames(a[key]) && a[key] !== KNOWN_AFTER_APPLY && b[key] !== KNOWN_AFTER_APPLY)
    .map((setting) => ({ address, name, setting, before: b[setting] ?? null, after: a[setting] ?? null }));
}

/** A statement's identity for comparison: what it allows, not where in the document it sits. */
function statementKey(s: IamStatement): string {
  const sorted = (xs: readonly string[]) => [...xs].sort();
  return JSON.stringify([s.policy, s.source, s.effect, s.notAction, sorted(s.actions), s.notResource, sorted(s.resources.map(withoutNames)), sorted(s.principals), s.hasCondition]);
}

/** What differs between the baseline configuration's resources and this plan's. */
export function compareConfigurations(baselineLabel: string, baseline: readonly ResourceFacts[], current: readonly ResourceFacts[]): ConfigurationChanges {
  const before = new Map(baseline.filter(exists).map((f) => [f.address, f]));
  const after = new Map(current.filter(exists).map((f) => [f.address, f]));
  const settings: SettingChange[] = [];
  for (const [address, facts] of after) {
    const old = before.get(address);
    if (old) settings.push(...settingDiffs(address, facts.name ?? old.name, old.settings, facts.settings));
  }
  const statements = (facts: Map<string, ResourceFacts>) => new Map([...facts.values()].flatMap((f) => f.statements ?? []).map((s) => [statementKey(s), s]));
  const oldStatements = statements(before);
  const newStatements = statements(after);
  return {
    baseline: baselineLabel,
    added: [...after.keys()].filter((a) => !before.has(a)).sort(),
    removed: [...before.keys()].filter((a) => !after.has(a)).sort(),
    settings,
    statementsAdded: [...newStatements].filter(([key]) => !oldStatements.has(key)).map(([, s]) => s),
    statementsRemoved: [...oldStatements].filter(([key]) => !newStatements.has(key)).map(([, s]) => s),
  };
}

/**
 * Transitions inferred from two configurations (no state): the action is what AWS must do given the settings that
 * cannot change in place. Used where the plan itself has no before side for a resource.
 */
export function inferTransition(old: ResourceFacts | undefined, facts: ResourceFacts | undefined): Transition | undefined {
  const any = facts ?? old;
  if (!any) return undefined;
  const side = (f: ResourceFacts | undefined) => (f ? { name: f.name, settings: f.settings, statements: f.statements, policyUnknown: f.policyUnknown } : null);
  if (!old) return { address: any.address, type: any.type, action: PlanAction.Create, basis: "configuration", before: null, after: side(facts) };
  if (!facts) return { address: any.address, type: any.type, action: PlanAction.Destroy, basis: "configuration", before: side(old), after: null };
  const changed = settingDiffs(facts.address, facts.name, old.settings, facts.settings).map((d) => d.setting);
  const immutable = IMMUTABLE[facts.settings?.kind ?? "queue"] ?? [];
  const forcing = facts.settings ? changed.filter((s) => immutable.includes(s)) : [];
  const statementsChanged = JSON.stringify((old.statements ?? []).map(statementKey)) !== JSON.stringify((facts.statements ?? []).map(statementKey));
  const action = forcing.length > 0 ? PlanAction.Replace : changed.length > 0 || statementsChanged ? PlanAction.Update : PlanAction.Noop;
  return { address: facts.address, type: facts.type, action, basis: "configuration", before: side(old), after: side(facts), replacePaths: forcing };
}
