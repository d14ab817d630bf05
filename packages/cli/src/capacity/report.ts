import type { Section } from "../cost/table";
import type { Figures } from "./figures";
import type { MonthlyCost } from "./monthly-cost";
import type { CapacityPlan } from "./plan";
import { QUOTA_IDS, type Quotas } from "./quotas";
import type { CapacitySettings } from "./settings";

export interface CapacityReportInput {
  readonly plan: CapacityPlan;
  readonly settings: CapacitySettings;
  readonly figures: Figures;
  readonly quotas: Quotas;
  readonly cost: MonthlyCost;
  readonly chartFile: string | null;
}

const n = (v: number) => Math.round(v).toLocaleString("en-US");
const pct = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 1 : 0)}%`;
const usd = (v: number) => `$${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/** Every section of `npx effectively-once capacity`, in the order printed. */
export function buildCapacityReport(input: CapacityReportInput): Section[] {
  return [summary(input), parts(input), remedies(input), ramps(input), cost(input), settingsSection(input), figuresSection(input), quotasSection(input)];
}

/** The one-paragraph answer: what saturates first, the ceiling, and what N needs. */
function verdict(plan: CapacityPlan): string[] {
  const first = plan.saturatesFirst;
  const lines = [
    `Saturates first: ${first.name} (${pct(first.utilisation)} at ${n(plan.rate)} msg/s; limit ${n(first.limit)} ${first.unit}, ${first.quota.scope}).`,
    `Highest sustainable rate with these quotas: ${n(plan.maxSustainableRate)} msg/s.`,
  ];
  const hard = plan.remedies.filter((r) => r.kind === "hard");
  if (plan.remedies.length === 0) lines.push(`${n(plan.rate)} msg/s fits the quotas with ${pct(plan.headroom)} headroom: no increase to request.`);
  else if (hard.length > 0) lines.push(`${n(plan.rate)} msg/s cannot be planned as is: ${hard.map((r) => r.part.name).join(", ")} is a hard per-key limit.`);
  if (plan.stacks > 1) lines.push(`${n(plan.rate)} msg/s is above a per-stack limit AWS does not raise: shard into ${plan.stacks} stacks by business key (${n(plan.rate / plan.stacks)} msg/s each), and request the account-level increases below for the total.`);
  else if (plan.remedies.some((r) => r.kind === "increase")) lines.push(`${n(plan.rate)} msg/s needs the quota increases below (one stack is enough).`);
  return lines;
}

function summary({ plan, figures }: CapacityReportInput): Section {
  return { title: `Capacity at ${n(plan.rate)} messages per second`, headers: [], rows: [], notes: [...verdict(plan), `Figures: ${figures.label}.`] };
}

function parts({ plan }: CapacityReportInput): Section {
  const sorted = [...plan.parts].sort((a, b) => b.utilisation - a.utilisation);
  return {
    title: "Utilisation by part (Little's law: in flight = rate × time in the part)",
    headers: ["Part", "Needs", "Limit", "Used", "Limit is", "Max msg/s", "How"],
    align: ["l", "r", "r", "r", "l", "r", "l"],
    rows: sorted.map((p) => [p.name, `${n(p.demand)} ${p.unit}`, `${n(p.limit)}${p.quota.assumption ? " (assumed)" : ""}`, pct(p.utilisation), p.quota.scope, n(p.limit / p.perRate), p.how]),
    notes: [
      "SQS in flight is a silent limit: at it a long poll (the pipe's) gets no error, only fewer messages; watch ApproximateNumberOfMessagesNotVisible.",
    ],
  };
}

function remedies({ plan }: CapacityReportInput): Section {
  return {
    title: `What ${n(plan.rate)} msg/s needs (with ${pct(plan.headroom)} headroom)`,
    headers: plan.remedies.length ? ["Part", "Used", "Action"] : [],
    rows: plan.remedies.map((r) => [r.part.name, pct(r.part.utilisation), r.text]),
    notes: plan.remedies.length ? [`Stacks needed: ${plan.stacks}.`] : ["Nothing: every part stays under its limit with the headroom."],
  };
}

function ramps({ plan }: CapacityReportInput): Section {
  return { title: "Ramp-up from idle and bursts (not steady-state limits)", headers: ["What", "Time"], rows: plan.ramps.map((r) => [r.name, r.value]) };
}

function cost({ plan, cost: c }: CapacityReportInput): Section {
  return {
    title: `Monthly cost at ${n(plan.rate)} msg/s (the cost model, packages/cli/src/cost/)`,
    headers: ["Item", "USD per month"],
    align: ["l", "r"],
    rows: [
      [`${n(c.messagesPerMonth)} messages (730 hours)`, usd(c.perMessageUsd)],
      ["fixed (idle polling, alarms, dashboard)", usd(c.fixedUsd)],
      ["total", usd(c.totalUsd)],
    ],
    notes: [`us-east-1 list prices taken ${c.pricesTakenOn}, first volume tier only (volume discounts would lower it); npx effectively-once cost prints every line item.`],
  };
}

function settingsSection({ settings: s }: CapacityReportInput): Section {
  const c = s.config;
  return {
    title: "Read from the synthesized stack",
    headers: ["Setting", "Value"],
    rows: [
      ["source", c.source],
      ["pipe batch size / batching window", `${c.pipe.batchSize} / ${c.pipe.maximumBatchingWindowSeconds} s`],
      ["Map concurrency / execution timeout", `${c.stateMachine.maxConcurrency} / ${s.executionTimeoutSeconds} s`],
      ["function memory / timeout / reserved concurrency", `${c.function.memoryMb} MB / ${c.function.timeoutSeconds} s / ${s.reservedConcurrency ?? "none (account pool)"}`],
      ["retries of Lambda service errors (throttles)", String(s.lambdaRetries)],
      ["source queue visibility timeout", `${s.visibilityTimeoutSeconds} s`],
    ],
    notes: ["A throttled invocation is retried by the workflow: near a Lambda limit, retries add load, so plan below 100%."],
  };
}

/**
 * The function's invocation as the planner takes it (AWS-typical: one record's time per wave of the Map's concurrency)
 * and as the local cloud measured it in a bench run, when a figures file gives one: both printed, the first used.
 */
function invocationRows({ figures: f, settings }: CapacityReportInput): string[][] {
  const batch = settings.batchInvocation === true;
  const what = batch ? `one batch invocation (${settings.config.pipe.batchSize} records)` : "one invocation (a new key)";
  const assumed = batch ? f.batchFunctionMs : f.functionMs;
  const m = f.measuredFunction;
  const measured = !m
    ? "not measured: npx effectively-once bench --batch-sizes N --write-figures F, then --figures F"
    : `${m.ms.toFixed(1)} ms, one invocation a ${m.batchInvocation ? "batch" : "record"} (${m.invocationsPerMessage.toFixed(3)} a message; this machine's CPU, local emulators)` +
      (m.batchInvocation === batch ? "" : ": another mode than this stack's");
  return [
    [`function: ${what}, AWS-typical (the planner uses this)`, `${assumed} ms`],
    [`function: ${what}, measured locally`, measured],
  ];
}

function figuresSection(input: CapacityReportInput): Section {
  const f = input.figures;
  return {
    title: "Figures",
    headers: ["Figure", "Value"],
    rows: [
      ["execution of one batch", `${f.executionMsPerBatch.toFixed(1)} ms`],
      ["pipe receive + delete per batch", `${f.pipeOverheadMs} ms`],
      ...invocationRows(input),
      ["DynamoDB calls: measured ÷ model", f.dynamoCallScale.toFixed(2)],
      ["duplicates / quarantined / retries per message", `${f.mix.duplicateRatio} / ${f.mix.quarantineRatio} / ${f.mix.retryRatio}`],
      ["share of messages on the hottest key (assumption)", String(f.mix.hotKeyShare)],
    ],
    notes: [f.label],
  };
}

function quotasSection({ quotas }: CapacityReportInput): Section {
  return {
    title: "Quotas and their sources",
    headers: ["Quota", "Value", "Scope", "Adjustable", "Source", "What it says"],
    align: ["l", "r", "l", "l", "l", "l"],
    rows: QUOTA_IDS.map((id) => {
      const q = quotas[id];
      const value = `${n(q.value)} ${q.unit}${q.origin === "default" ? "" : ` (${q.origin})`}`;
      return [id, q.assumption ? `${value} ASSUMPTION` : value, q.scope, q.adjustable ? "yes" : "no", q.source.url, q.source.says];
    }),
    notes: ["ASSUMPTION: no AWS page states the number; override it with --quota id=value or --quotas file.json."],
  };
}
