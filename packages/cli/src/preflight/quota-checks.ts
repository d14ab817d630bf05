import { DEFAULT_ASSUMPTIONS } from "../cost/assumptions";
import { defaultFigures } from "../capacity/figures";
import { planCapacity, type CapacityPlan } from "../capacity/plan";
import { DEFAULT_QUOTAS, resolveQuotas, type QuotaId } from "../capacity/quotas";
import type { CapacitySettings } from "../capacity/settings";
import type { Finding } from "./finding";

/** A quota Service Quotas lists, as the reader returns it. */
export interface AppliedQuota {
  readonly code: string;
  readonly name: string;
  readonly value: number;
  readonly adjustable: boolean;
}

/**
 * Which listed quota is which of the capacity plan's (packages/cli/src/capacity/quotas.ts), by service code and name. A listed
 * quota that matches none is shown, marked as not judged, when its name suggests it could bound the pipeline.
 */
const PLAN_QUOTAS: readonly (readonly [string, RegExp, QuotaId])[] = [
  ["lambda", /^concurrent executions$/i, "lambda.concurrency"],
  ["states", /StartSyncExecution.*(refill|rate)/i, "sfn.syncStartRate"],
  ["states", /StartSyncExecution.*bucket/i, "sfn.syncStartBurst"],
  ["states", /synchronous express.*concurren/i, "sfn.syncConcurrency"],
  ["dynamodb", /table-level write throughput/i, "dynamodb.tableWriteUnits"],
  ["dynamodb", /table-level read throughput/i, "dynamodb.tableReadUnits"],
  ["sqs", /in[- ]?flight/i, "sqs.inFlight"],
  ["pipes", /batches/i, "pipes.concurrentBatches"],
];
const MAY_MATTER = /concurren|in ?flight|StartSyncExecution|StartExecution|state ?transition|pipe|invocation|throughput|tables/i;

/** The capacity plan at `rate` with AWS's default quotas, as `npx effectively-once capacity --rate N` computes it. */
export function planAt(settings: CapacitySettings, rate: number, headroom: number): CapacityPlan {
  const figures = defaultFigures(settings.config.pipe.batchSize, settings.config.stateMachine.maxConcurrency, DEFAULT_ASSUMPTIONS);
  return planCapacity(settings, figures, resolveQuotas(), rate, headroom, DEFAULT_ASSUMPTIONS);
}

const fmt = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en-US") : n.toLocaleString("en-US", { maximumFractionDigits: 1 }));

/** What the plan needs of one quota at its rate (the busiest part that uses it), or undefined when no part does. */
function needOf(plan: CapacityPlan, id: QuotaId): { need: number; part: string } | undefined {
  // A bucket is spent by one second of starts: the burst must hold at least what the refill rate must supply.
  const partsOf = id === "sfn.syncStartBurst" ? plan.parts.filter((p) => p.quota.id === "sfn.syncStartRate") : plan.parts.filter((p) => p.quota.id === id);
  if (partsOf.length === 0) return undefined;
  const busiest = partsOf.reduce((a, b) => (b.demand > a.demand ? b : a));
  return { need: busiest.demand * (1 + plan.headroom), part: busiest.name };
}

/**
 * Every listed quota that may bound the pipeline, judged: against what the plan needs at `--rate` (✘ below it), or,
 * without a rate, against the default the plan assumes (! below it: re-plan with the applied value).
 */
export function quotaFindings(service: string, quotas: readonly AppliedQuota[], plan: CapacityPlan | undefined): Finding[] {
  const findings: Finding[] = [];
  for (const q of [...quotas].sort((a, b) => a.name.localeCompare(b.name))) {
    const mapped = PLAN_QUOTAS.find(([code, name]) => code === service && name.test(q.name));
    const label = `${service} ${q.code} "${q.name}": ${fmt(q.value)}`;
    if (!mapped) {
      if (MAY_MATTER.test(q.name)) findings.push({ level: "info", text: `${label} (not judged: the capacity plan has no part for it)` });
      continue;
    }
    const id = mapped[2];
    const assumed = DEFAULT_QUOTAS[id].value;
    const need = plan ? needOf(plan, id) : undefined;
    if (plan && need) {
      const ok = q.value >= need.need;
      const how = `${need.part} needs ${fmt(need.need)} at ${fmt(plan.rate)} msg/s with ${Math.round(plan.headroom * 100)}% headroom`;
      findings.push(
        ok
          ? { level: "ok", text: `${label}: ${how}` }
          : { level: "fail", text: `${label} is below what the plan needs: ${how}. Fix: request ≥ ${fmt(Math.ceil(need.need))}${q.adjustable ? "" : " (AWS lists it as not adjustable: shard into more stacks)"}, or plan a lower rate (npx effectively-once capacity --rate N --quota ${id}=${q.value})` },
      );
      continue;
    }
    findings.push(
      q.value < assumed
        ? { level: "warn", text: `${label} is below the ${fmt(assumed)} the capacity plan assumes: pass --rate N to judge it, or re-plan with npx effectively-once capacity --rate N --quota ${id}=${q.value}` }
        : { level: "ok", text: `${label} (≥ the ${fmt(assumed)} the capacity plan assumes${plan ? "; no part of the plan uses it at this rate" : ""})` },
    );
  }
  return findings;
}
