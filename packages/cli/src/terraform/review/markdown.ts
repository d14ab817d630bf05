import { PlanAction } from "../plan-json";
import { ActionBasis, Severity, StatementSource, type IamStatement, type PlanReview, type ResourceFacts, type ResourceSettings, type Shown } from "./types";

/** Renders a review as Markdown for a pull-request comment. Pure: the same review always gives the same text. */

const cell = (value: string) => value.replace(/\|/g, "\\|").replace(/\n/g, " ");
const code = (value: string) => (value ? `\`${value.replace(/`/g, "'")}\`` : "");
const row = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;

function table(headers: readonly string[], rows: readonly (readonly string[])[], align?: readonly ("l" | "r")[]): string[] {
  const rule = headers.map((_, i) => (align?.[i] === "r" ? "---:" : "---"));
  return [row(headers), `| ${rule.join(" | ")} |`, ...rows.map(row)];
}

const UNITS: readonly [number, string][] = [
  [86400, "d"],
  [3600, "h"],
  [60, "min"],
];

/** 345600 → "345600 s (4 d)". */
export function formatSeconds(value: Shown): string {
  if (typeof value !== "number") return formatValue(value);
  const unit = UNITS.find(([size]) => value >= size && value % size === 0);
  return unit ? `${value} s (${value / unit[0]} ${unit[1]})` : `${value} s`;
}

function formatValue(value: Shown): string {
  if (value === null) return "—";
  if (value === true) return "on";
  if (value === false) return "off";
  return String(value);
}

const yesNo = (value: Shown) => formatValue(value);

const BASIS_TEXT: Record<ActionBasis, string> = {
  [ActionBasis.EmptyState]:
    "Offline plan: no AWS account was read and the state starts empty, so every resource is a create. Values AWS assigns at apply (ARNs, URLs) are shown as the resource they reference.",
  [ActionBasis.SeededState]:
    "Offline plan against the baseline: Terraform planned this configuration against a state built from the baseline plan (placeholder ARNs and URLs, `-refresh=false`), so every update and replacement below is Terraform's own verdict. Drift in the real account is not visible offline.",
  [ActionBasis.RealState]: "Online plan against the real state in the configured backend.",
  [ActionBasis.SavedPlan]: "Review of a saved plan.",
};

function summaryLines(review: PlanReview): string[] {
  const s = review.summary;
  const lines = [
    `**Plan:** ${s.create} to create, ${s.update} to update, ${s.replace} to replace, ${s.destroy} to destroy, ${s.noop} unchanged.`,
    "",
    ...table(
      ["Service", "Create", "Update", "Replace", "Destroy", "Unchanged"],
      [
        ...s.byService.map((c) => [c.service, String(c.create), String(c.update), String(c.replace), String(c.destroy), String(c.noop)]),
        ["**Total**", `**${s.create}**`, `**${s.update}**`, `**${s.replace}**`, `**${s.destroy}**`, `**${s.noop}**`],
      ],
      ["l", "r", "r", "r", "r", "r"],
    ),
  ];
  const changed = review.resources.filter((r) => r.action !== PlanAction.Noop);
  if (changed.length > 0) {
    lines.push(
      "",
      `<details><summary>Resources (${changed.length} changing)</summary>`,
      "",
      ...table(
        ["Action", "Resource", "Name", "Forced by"],
        changed.map((r) => [r.action, code(r.address), r.name ?? "", (r.replacePaths ?? []).map(code).join(", ")]),
      ),
      "",
      "</details>",
    );
  }
  return lines;
}

function riskLines(review: PlanReview): string[] {
  if (review.risks.length === 0) return ["No risk flags: nothing stateful is replaced or destroyed, no key derivation changes, and no IAM, TTL, PITR, deletion-protection, encryption, redrive or invocation setting is loosened."];
  return review.risks.map((r) => `- ${r.severity === Severity.High ? "🔴 **high**" : "🟠 **medium**"} ${code(r.address)}: ${r.message}${r.basis === "configuration" ? " _(inferred from the configuration diff)_" : ""}`);
}

function statementNotes(s: IamStatement): string {
  const notes: string[] = [];
  if (s.wildcardActions.length > 0) notes.push(`⚠️ wildcard action ${s.wildcardActions.map(code).join(", ")}`);
  if (s.wildcardResource) notes.push(s.requiredWildcard ? `\`*\` required: ${s.requiredWildcard}` : s.source === StatementSource.Trust ? "⚠️ any principal" : "⚠️ wildcard resource `*`");
  if (s.hasCondition) notes.push("has Condition");
  return notes.join("; ");
}

function iamLines(resources: readonly ResourceFacts[]): string[] {
  const statements = resources.filter((r) => r.action !== PlanAction.Destroy).flatMap((r) => r.statements ?? []);
  const unknown = resources.filter((r) => r.policyUnknown).map((r) => code(r.address));
  const lines = statements.length
    ? table(
        ["Role", "Kind", "Sid", "Effect", "Actions", "Resources / principals", "Notes"],
        statements.map((s) => [
          s.role,
          s.source,
          s.sid ?? "",
          s.effect,
          (s.notAction ? ["NotAction:"] : []).concat(s.actions.map(code)).join("<br>"),
          (s.source === StatementSource.Trust ? s.principals : (s.notResource ? ["NotResource:"] : []).concat(s.resources)).map((x) => (x.endsWith(":") ? x : code(x))).join("<br>"),
          statementNotes(s),
        ]),
      )
    : ["No IAM policies in this plan."];
  if (unknown.length) lines.push("", `Policies not readable at plan time (built by expressions): ${unknown.join(", ")}.`);
  return lines;
}

type SettingsOf<K extends ResourceSettings["kind"]> = Extract<ResourceSettings, { kind: K }>;
function ofKind<K extends ResourceSettings["kind"]>(resources: readonly ResourceFacts[], kind: K): { facts: ResourceFacts; s: SettingsOf<K> }[] {
  return resources
    .filter((r) => r.action !== PlanAction.Destroy && r.settings?.kind === kind)
    .map((facts) => ({ facts, s: facts.settings as SettingsOf<K> }));
}

function settingsLines(resources: readonly ResourceFacts[]): string[] {
  const lines: string[] = [];
  const section = (title: string, headers: string[], rows: string[][], align?: ("l" | "r")[]) => {
    if (rows.length) lines.push(`#### ${title}`, "", ...table(headers, rows, align), "");
  };
  section(
    "Queues",
    ["Queue", "Encryption", "Visibility timeout", "Retention", "Long poll", "Redrive target", "maxReceiveCount"],
    ofKind(resources, "queue").map(({ s }) => [
      formatValue(s.name),
      formatValue(s.encryption),
      formatSeconds(s.visibilityTimeoutSeconds),
      formatSeconds(s.messageRetentionSeconds),
      formatSeconds(s.receiveWaitTimeSeconds),
      s.redriveTarget === null ? "none" : code(String(s.redriveTarget)),
      formatValue(s.maxReceiveCount),
    ]),
  );
  section(
    "Tables",
    ["Table", "Keys", "Billing", "Encryption", "TTL attribute", "PITR", "Deletion protection"],
    ofKind(resources, "table").map(({ s }) => [
      formatValue(s.name),
      [s.hashKey, s.rangeKey].filter((k) => k !== null).map((k) => code(String(k))).join(" + "),
      formatValue(s.billingMode),
      formatValue(s.encryption),
      s.ttlAttribute === null ? "off" : code(String(s.ttlAttribute)),
      yesNo(s.pointInTimeRecovery),
      yesNo(s.deletionProtection),
    ]),
  );
  section(
    "State machines",
    ["State machine", "Type", "Log level", "Execution data in logs", "Log destination", "Tracing"],
    ofKind(resources, "stateMachine").map(({ s }) => [
      formatValue(s.name),
      formatValue(s.type),
      formatValue(s.logLevel),
      yesNo(s.includeExecutionData),
      code(formatValue(s.logDestination)),
      yesNo(s.tracing),
    ]),
  );
  section(
    "Pipes",
    ["Pipe", "Source", "Target", "Invocation", "Batch size", "Batching window", "Filters", "State"],
    ofKind(resources, "pipe").map(({ s }) => [
      formatValue(s.name),
      code(formatValue(s.source)),
      code(formatValue(s.target)),
      formatValue(s.invocationType),
      formatValue(s.batchSize),
      formatSeconds(s.batchingWindowSeconds),
      formatValue(s.filters),
      formatValue(s.desiredState),
    ]),
  );
  section(
    "Log groups",
    ["Log group", "Retention"],
    ofKind(resources, "logGroup").map(({ s }) => [formatValue(s.name), s.retentionDays === null ? "⚠️ never expires" : `${formatValue(s.retentionDays)} days`]),
  );
  section(
    "Functions",
    ["Function", "Runtime", "Architecture", "Timeout", "Memory", "Reserved concurrency", "Tracing"],
    ofKind(resources, "function").map(({ s }) => [
      formatValue(s.name),
      formatValue(s.runtime),
      formatValue(s.architecture),
      formatSeconds(s.timeoutSeconds),
      `${formatValue(s.memoryMb)} MB`,
      s.reservedConcurrency === null ? "unreserved" : formatValue(s.reservedConcurrency),
      formatValue(s.tracing),
    ]),
  );
  return lines.length ? lines : ["No queues, tables, state machines, pipes, log groups or functions in this plan.", ""];
}

function changesLines(review: PlanReview): string[] {
  const c = review.changes;
  if (!c) return [];
  const lines = [`### Changes against ${code(c.baseline)}`, ""];
  if (!c.added.length && !c.removed.length && !c.settings.length && !c.statementsAdded.length && !c.statementsRemoved.length) {
    return [...lines, "The two configurations plan the same resources, settings and IAM statements.", ""];
  }
  if (c.added.length) lines.push(`Added: ${c.added.map(code).join(", ")}`, "");
  if (c.removed.length) lines.push(`Removed: ${c.removed.map(code).join(", ")}`, "");
  if (c.settings.length) {
    lines.push(
      ...table(
        ["Resource", "Setting", "Before", "After"],
        c.settings.map((d) => [d.name ?? code(d.address), d.setting, formatValue(d.before), formatValue(d.after)]),
      ),
      "",
    );
  }
  const statement = (s: IamStatement) => `${s.role}: ${s.effect} ${s.actions.map(code).join(", ")} on ${(s.source === StatementSource.Trust ? s.principals : s.resources).map(code).join(", ")}`;
  if (c.statementsAdded.length) lines.push("IAM statements added:", "", ...c.statementsAdded.map((s) => `- ${statement(s)}`), "");
  if (c.statementsRemoved.length) lines.push("IAM statements removed:", "", ...c.statementsRemoved.map((s) => `- ${statement(s)}`), "");
  return lines;
}

export function renderMarkdown(review: PlanReview): string {
  const title = `## Terraform plan review${review.stack ? `: ${code(review.stack)}` : ""}${review.mode ? ` (${review.mode})` : ""}`;
  const lines = [
    title,
    "",
    `_${BASIS_TEXT[review.basis]}_`,
    "",
    ...summaryLines(review),
    "",
    "### Risks",
    "",
    ...riskLines(review),
    "",
    ...changesLines(review),
    "### IAM statements",
    "",
    ...iamLines(review.resources),
    "",
    "### Pipeline settings",
    "",
    ...settingsLines(review.resources),
  ];
  if (review.notes.length) lines.push("### Notes", "", ...review.notes.map((n) => `- ${n}`), "");
  return `${lines.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd()}\n`;
}
