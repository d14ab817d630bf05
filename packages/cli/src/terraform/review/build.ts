import { alarmRisks } from "./alarm-risks";
import { PlanAction, type PlanJson } from "../plan-json";
import { compareConfigurations, inferTransition } from "./changes";
import { extractStatements } from "./iam";
import { displayName, plannedResources, readers, referenceLabeler, serviceOf, type PlannedResource } from "./planned";
import { assessRisks, type FactsSide, type Transition } from "./risks";
import { queueGuardRisks } from "./queue-guard";
import { queuePolicySourceRisks } from "./queue-policy-sources";
import { redriveGuardRisks } from "./redrive-guard";
import { extractSettings } from "./settings";
import { summarize } from "./summary";
import { ActionBasis, type PlanReview, type ResourceFacts, type ReviewMode } from "./types";

export interface ReviewOptions {
  readonly stack?: string | null;
  readonly mode?: ReviewMode | null;
  readonly basis: ActionBasis;
  /** The configuration this one is compared with: the resources of its review. */
  readonly baseline?: { readonly label: string; readonly resources: readonly ResourceFacts[] };
  readonly notes?: readonly string[];
}

function sideFacts(resource: PlannedResource, side: "before" | "after", label: ReturnType<typeof referenceLabeler>): FactsSide | null {
  const reader = readers(resource, label)[side];
  const values = resource[side];
  if (!reader || !values) return null;
  const iam = extractStatements(resource.address, resource.type, reader, label);
  return {
    name: displayName(values),
    settings: extractSettings(resource.type, reader, label),
    ...(iam ? { statements: iam.statements, policyUnknown: iam.policyUnknown } : {}),
  };
}

const ORDER = { high: 0, medium: 1 } as const;
function sortRisks(flags: PlanReview["risks"]): PlanReview["risks"] {
  return [...flags].sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.address.localeCompare(b.address));
}

/** The review of one plan: pure over the `terraform show -json` output (and an optional baseline review). */
export function buildReview(plan: PlanJson, options: ReviewOptions): PlanReview {
  const planned = plannedResources(plan);
  const label = referenceLabeler(planned);
  const transitions: Transition[] = [];
  const resources: ResourceFacts[] = planned.map((resource) => {
    const before = sideFacts(resource, "before", label);
    const after = sideFacts(resource, "after", label);
    const shown = after ?? before;
    if (resource.before) {
      transitions.push({ address: resource.address, type: resource.type, action: resource.action, basis: "terraform", before, after, replacePaths: resource.replacePaths });
    }
    return {
      address: resource.address,
      type: resource.type,
      service: serviceOf(resource.type),
      name: shown?.name ?? null,
      action: resource.action,
      ...(resource.replacePaths.length > 0 ? { replacePaths: resource.replacePaths } : {}),
      ...(shown?.settings ? { settings: shown.settings } : {}),
      ...(shown?.statements ? { statements: shown.statements, policyUnknown: shown.policyUnknown } : {}),
    };
  });

  if (options.basis === ActionBasis.SeededState || options.basis === ActionBasis.RealState) {
    // Creates on a real (or seeded) state are real additions: let the IAM rules see them.
    const withState = new Set(transitions.map((t) => t.address));
    for (const resource of planned) {
      if (withState.has(resource.address) || resource.action !== PlanAction.Create) continue;
      transitions.push({ address: resource.address, type: resource.type, action: resource.action, basis: "terraform", before: null, after: sideFacts(resource, "after", label) });
    }
  }
  // Where the plan has no before side (offline, empty state), compare with the baseline configuration instead.
  if (options.baseline) {
    const withState = new Set(transitions.map((t) => t.address));
    const old = new Map(options.baseline.resources.filter((f) => f.action !== PlanAction.Destroy).map((f) => [f.address, f]));
    const now = new Map(resources.filter((f) => f.action !== PlanAction.Destroy).map((f) => [f.address, f]));
    for (const address of new Set([...old.keys(), ...now.keys()])) {
      if (withState.has(address)) continue;
      const t = inferTransition(old.get(address), now.get(address));
      if (t) transitions.push(t);
    }
  }
  const baselineKnown = options.basis === ActionBasis.SeededState || options.basis === ActionBasis.RealState || options.baseline !== undefined;

  return {
    kind: "plan-review",
    version: 1,
    stack: options.stack ?? null,
    mode: options.mode ?? null,
    basis: options.basis,
    terraformVersion: plan.terraform_version ?? null,
    summary: summarize(resources),
    risks: sortRisks([
      ...assessRisks(transitions, { baselineKnown }),
      ...queueGuardRisks(planned, label),
      ...queuePolicySourceRisks(planned, label, { basis: options.basis, baseline: options.baseline?.resources }),
      ...alarmRisks(planned, label),
      ...redriveGuardRisks(planned, label),
    ]),
    resources,
    changes: options.baseline ? compareConfigurations(options.baseline.label, options.baseline.resources, resources) : null,
    notes: options.notes ?? [],
  };
}
