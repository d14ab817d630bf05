import { ASSUMPTION_NOTES, BaselineWorkflow, type Assumptions } from "./assumptions";
import type { Comparison } from "./compare";
import type { FixedCost } from "./fixed-costs";
import { count, quantity, share, unitPriceText, usd } from "./format";
import type { CostLine } from "./line";
import { BASELINE_PATHS, DESIGN_PATHS, PATHS, type PathProfile } from "./paths";
import { PRICE_IDS, type PriceBook } from "./prices";
import type { Section } from "./table";
import type { DeployedConfig } from "./types";
import { dynamoUnitsOf } from "./path-units";
import { pathLatencyMs, pathLogEvents } from "./workflow-metrics";
import { costContext } from "./context";
import { workflowFateChannels } from "./fate-metrics";

export interface ReportInput {
  readonly config: DeployedConfig;
  readonly book: PriceBook;
  readonly assumptions: Assumptions;
  readonly comparison: Comparison;
  /** The same scenario at other duplicate ratios and batch sizes. */
  readonly matrix: readonly Comparison[];
  readonly fixed: readonly FixedCost[];
}

const perMillion = (c: Comparison, value: number) => (value * 1e6) / c.scenario.messages;

/** Every section of `npx effectively-once cost`, in the order printed. */
export function buildReport(input: ReportInput): Section[] {
  return [summarySection(input), ownerSection(input), fateChannelSection(input), matrixSection(input), linesSection("This design: line items", input.comparison, input.comparison.design.lines),
    linesSection(`${input.comparison.baseline.design}: line items`, input.comparison, input.comparison.baseline.lines),
    pathSection(input), configSection(input.config), fixedSection(input.fixed), assumptionSection(input), priceSection(input.book), exclusionsSection()];
}

function scenarioText(c: Comparison): string {
  const s = c.scenario;
  return `per ${count(s.messages)} messages: ${share(s.duplicateRatio, 0)} duplicates, ${share(s.quarantineRatio, 1)} quarantined (payload-mismatch), ${s.retryRatio} extra deliveries per message that end in retry, batch size ${s.batchSize}`;
}

function summarySection({ comparison: c }: ReportInput): Section {
  const services = [...new Set([...c.design.lines, ...c.baseline.lines].map((l) => l.service))];
  const total = (lines: readonly CostLine[], service: string) => lines.filter((l) => l.service === service).reduce((s, l) => s + l.usd, 0);
  const rows = services.map((service) => {
    const d = perMillion(c, total(c.design.lines, service));
    const b = perMillion(c, total(c.baseline.lines, service));
    return [service, usd(d), usd(b), usd(b - d)];
  });
  rows.push(["Total", usd(perMillion(c, c.design.totalUsd), 2), usd(perMillion(c, c.baseline.totalUsd), 2), `${usd(perMillion(c, c.savingsUsd), 2)} (${share(c.savingsShare)})`]);
  return {
    title: "Cost per million messages, by service",
    headers: ["Service", `This design (batch ${c.scenario.batchSize})`, c.baseline.design, "Saved"],
    align: ["l", "r", "r", "r"],
    rows,
    notes: [scenarioText(c), "AWS us-east-1 list prices beyond free tiers; fixed monthly costs are listed separately."],
  };
}

const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)} ×` : "-");

function ownerSection({ comparison: c }: ReportInput): Section {
  const row = (name: string, d: number, b: number) => [name, usd(perMillion(c, d), 2), usd(perMillion(c, b), 2), ratio(d, b)];
  return {
    title: "The pipeline's own cost and the side effect's, per million messages",
    headers: ["Part", `This design (batch ${c.scenario.batchSize})`, c.baseline.design, "This ÷ guard"],
    align: ["l", "r", "r", "r"],
    rows: [
      row("pipeline's own cost", c.design.pipelineUsd, c.baseline.pipelineUsd),
      row("side effect (the example's)", c.design.sideEffectUsd, c.baseline.sideEffectUsd),
      row("total", c.design.totalUsd, c.baseline.totalUsd),
    ],
    notes: [
      "Pipeline: queue, pipe, workflow, ledger, Powertools table and its share of the function's duration, logs, tracing, DLQ.",
      "Side effect: the effects table (EFFECT and CALL items, storage) and the function's requests and own work; the user pays it in either design.",
    ],
  };
}

function fateChannelSection({ config, book, assumptions, comparison: c }: ReportInput): Section {
  const channels = workflowFateChannels(costContext(config, book, assumptions, c.scenario), DESIGN_PATHS, c.design.executions);
  const budget = 0.65 * c.baseline.pipelineUsd;
  // The built channel is in the line items already: each row shows the pipeline with it in that one's place.
  const built = c.design.lines.filter((l) => l.item.startsWith("workflow fate metrics")).reduce((sum, l) => sum + l.usd, 0);
  return {
    title: "Counting the fates the workflow decides (ledger duplicates, quarantines, retries): the built channel and the others, per million messages",
    headers: ["Channel", "USD per million", "By reason", "Pipeline ÷ guard with it", "How counted"],
    align: ["l", "r", "l", "r", "l"],
    rows: channels.map((ch) => [ch.channel, usd(perMillion(c, ch.usd)), ch.byReason ? "yes" : "no", ratio(c.design.pipelineUsd - built + ch.usd, c.baseline.pipelineUsd), ch.detail]),
    notes: [
      `The function's fates (applied, second-layer duplicates, send-to-effect) and the workflow's (the built channel) are in the line items above. Budget: pipeline ≤ 0.65 × the guard's = ${usd(perMillion(c, budget), 2)}; this design, every fate metric in it, ${usd(perMillion(c, c.design.pipelineUsd), 2)} (${ratio(c.design.pipelineUsd, c.baseline.pipelineUsd)}).`,
      "Built: one PutLogEvents of EMF events per batch that has such a fate (CloudWatch Logs extracts EMF from PutLogEvents; the x-amzn-logs-format header is optional). docs/operations.md, \"Fate metrics\".",
    ],
  };
}

function matrixSection({ matrix }: ReportInput): Section {
  return {
    title: "At a glance: cost per million messages",
    headers: ["Duplicates", "Batch size", "This design", "Lambda guard", "Saved", "Pipeline: this", "Pipeline: guard", "This ÷ guard"],
    align: ["r", "r", "r", "r", "r", "r", "r", "r"],
    rows: matrix.map((c) => [share(c.scenario.duplicateRatio, 0), String(c.scenario.batchSize), usd(perMillion(c, c.design.totalUsd), 2), usd(perMillion(c, c.baseline.totalUsd), 2), share(c.savingsShare),
      usd(perMillion(c, c.design.pipelineUsd), 2), usd(perMillion(c, c.baseline.pipelineUsd), 2), ratio(c.design.pipelineUsd, c.baseline.pipelineUsd)]),
    notes: ["Lambda guard = one execution per message whatever the batch size column says (its pipe batch is 1)."],
  };
}

function linesSection(title: string, c: Comparison, lines: readonly CostLine[]): Section {
  return {
    title,
    headers: ["Service", "Item", "For", "Quantity", "Price", "USD per million", "How counted"],
    align: ["l", "l", "l", "r", "r", "r", "l"],
    rows: lines.map((l) => [l.service, l.item, l.owner, quantity(perMillion(c, l.quantity), l.quantityUnit), unitPriceText(l.unitPriceUsd, l.quantityUnit), usd(perMillion(c, l.usd)), l.detail]),
  };
}

function pathSection({ config, assumptions: a }: ReportInput): Section {
  const level = config.stateMachine.logLevel;
  const calls = (p: PathProfile) => {
    const u = dynamoUnitsOf(p, a);
    return `${u.writes}W ${u.reads}R`;
  };
  const events = (p: PathProfile, inMap: boolean) => {
    const e = pathLogEvents(p, level, inMap);
    return String(e.normal + e.error);
  };
  return {
    title: "Per record path (one delivery)",
    headers: ["Path", "DynamoDB calls (this / guard)", "Lambda invocations (this / guard)", "DLQ sends", `Workflow ms (this / guard)`, `Log events at ${level} (this / guard)`],
    align: ["l", "r", "r", "r", "r", "r"],
    rows: PATHS.map((path) => {
      const d = DESIGN_PATHS[path];
      const b = BASELINE_PATHS[path];
      return [
        path,
        `${calls(d)} / ${calls(b)}`,
        `${d.downstreamInvocations + d.guardInvocations} / ${b.downstreamInvocations + b.guardInvocations}`,
        String(d.dlqSends),
        `${pathLatencyMs(d, a)} / ${pathLatencyMs(b, a)}`,
        `${events(d, true)} / ${events(b, false)}`,
      ];
    }),
    notes: [
      "W = write calls (1 WRU each: items < 1 KB; a failed conditional write is billed), R = consistent reads (1 RRU each: items < 4 KB).",
      "new-key: ledger claim + Powertools INPROGRESS put + EFFECT put + CALL put + Powertools COMPLETED update + ledger complete (6W).",
      "duplicate / retry / quarantine: ledger claim that fails its condition + consistent inspect (1W 1R); quarantine adds one DLQ send.",
      "The same counts were measured on the local cloud's DynamoDB proxy (packages/cli/test/cost/path-calls.test.ts).",
      "A duplicate that reaches the function is answered by Powertools from the conditional put's ALL_OLD return (1W), on AWS and locally (the local DynamoDB returns the item with a failed condition, as recorded on AWS).",
    ],
  };
}

function configSection(config: DeployedConfig): Section {
  const f = config.function;
  const m = config.stateMachine;
  return {
    title: "Read from the synthesized stack",
    headers: ["Setting", "Value"],
    rows: [
      ["source", config.source],
      ["region", config.region],
      ["pipe batch size / batching window", `${config.pipe.batchSize} / ${config.pipe.maximumBatchingWindowSeconds} s`],
      ["pipe filter patterns", String(config.pipe.filterPatterns)],
      ["state machine type / Map concurrency", `${m.type} / ${m.maxConcurrency}`],
      ["state machine log level / execution data", `${m.logLevel} / ${m.includeExecutionData}`],
      ["state machine tracing", String(m.tracing)],
      ["function memory / architecture / timeout", `${f.memoryMb} MB / ${f.architecture} / ${f.timeoutSeconds} s`],
      ["function log format / application level / system level", `${f.logFormat} / ${f.applicationLogLevel} / ${f.systemLogLevel}`],
      ["retention (ledger, Powertools, effects TTL)", `${config.retentionSeconds} s (${config.retentionSeconds / 86400} days)`],
      ["tables (billing mode, PITR)", Object.values(config.tables).map((t) => `${t.name} (${t.billingMode}, PITR ${t.pointInTimeRecovery ? "on" : "off"})`).join(", ")],
      ["alarms / dashboards", `${config.alarms} / ${config.dashboards}`],
    ],
  };
}

function fixedSection(fixed: readonly FixedCost[]): Section {
  return {
    title: "Fixed monthly costs (not per message; both designs)",
    headers: ["Item", "USD per month", "Detail"],
    align: ["l", "r", "l"],
    rows: fixed.map((f) => [f.item, usd(f.usdPerMonth, 2), f.detail]),
  };
}

function assumptionSection({ assumptions: a }: ReportInput): Section {
  const rows: string[][] = [];
  for (const [key, value] of Object.entries(a)) {
    if (key === "baseline") continue;
    rows.push([key, value === null ? "(unset)" : String(value), ASSUMPTION_NOTES[key as keyof typeof ASSUMPTION_NOTES]]);
  }
  for (const [key, value] of Object.entries(a.baseline)) {
    rows.push([`baseline.${key}`, String(value), ASSUMPTION_NOTES[`baseline.${key}` as keyof typeof ASSUMPTION_NOTES]]);
  }
  return {
    title: "Assumptions",
    headers: ["Name", "Value", "Why"],
    rows,
    notes: [
      a.baseline.workflow === BaselineWorkflow.Standard
        ? "Baseline priced as Standard: a pipe cannot wait for a Standard workflow (FIRE_AND_FORGET only), so it would lose partial-batch retries."
        : "Baseline priced as Express, the cheaper and the only type a pipe can wait for; --baseline-workflow standard prices it per state transition.",
    ],
  };
}

function priceSection(book: PriceBook): Section {
  const flagged = PRICE_IDS.filter((id) => book.prices[id].evidence === "none" || /uncertain/i.test(book.prices[id].note));
  return {
    title: `Prices (${book.region}, taken ${book.takenOn})`,
    headers: ["Price", "USD", "Per", "Unit", "Taken", "Evidence", "Sources"],
    align: ["l", "r", "r", "l", "l", "l", "l"],
    rows: PRICE_IDS.map((id) => {
      const p = book.prices[id];
      return [id, String(p.usd), p.per === 1073741824 ? "GiB" : count(p.per), p.unit, p.takenOn, p.evidence === "none" ? "NONE (unconfirmed)" : p.evidence, p.sources.map((s) => s.url + (s.dateShown ? ` (${s.dateShown})` : "")).join(" ; ")];
    }),
    notes: [
      "Evidence: aws = an AWS pricing page shows the number; secondary = dated third-party pages quote it (AWS's pages render their rate tables client-side); none = unconfirmed.",
      ...flagged.map((id) => `${id}: ${book.prices[id].note}`),
    ],
  };
}

function exclusionsSection(): Section {
  return {
    title: "Not included",
    headers: [],
    rows: [],
    notes: [
      "Free tiers (SQS 1M requests, Lambda 1M requests + 400k GB-s, X-Ray 100k traces, DynamoDB 25 GB, Logs 5 GB) and volume tiers beyond the first.",
      "Data transfer: every call stays in one region (free). SSE-SQS is free; DynamoDB's AWS-managed key caches its data keys, so KMS calls are negligible.",
      "CloudWatch Logs storage (14-day retention, compressed), Logs Insights queries, metrics the services publish for free.",
      "Cold starts (init duration is billed for on-demand Lambda since 2025), partially filled batches at low traffic (more receives and executions per message).",
      "The downstream system's own cost (here a DynamoDB table standing in for a payments API is priced: EFFECT and CALL items).",
    ],
  };
}
