import { PlanAction } from "../plan-json";
import type { PlanSummary, ResourceFacts, ServiceCount } from "./types";

type Counted = "create" | "update" | "replace" | "destroy" | "noop";
const COUNTED: Record<string, Counted | undefined> = {
  [PlanAction.Create]: "create",
  [PlanAction.Update]: "update",
  [PlanAction.Replace]: "replace",
  [PlanAction.Destroy]: "destroy",
  [PlanAction.Noop]: "noop",
};

const zero = (): Record<Counted, number> => ({ create: 0, update: 0, replace: 0, destroy: 0, noop: 0 });

/** Resources per planned action, overall and per AWS service (services sorted by name). */
export function summarize(resources: readonly ResourceFacts[]): PlanSummary {
  const totals = zero();
  const byService = new Map<string, Record<Counted, number>>();
  for (const resource of resources) {
    const key = COUNTED[resource.action];
    if (!key) continue;
    totals[key]++;
    const counts = byService.get(resource.service) ?? zero();
    counts[key]++;
    byService.set(resource.service, counts);
  }
  const services: ServiceCount[] = [...byService.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([service, counts]) => ({ service, ...counts }));
  return { ...totals, byService: services };
}
