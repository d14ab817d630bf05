import { formatTable } from "@effectively-once/local-cloud/harness";
import { perSecond } from "./bench-math";
import { LoadKind } from "@effectively-once/local-cloud/harness";
import type { SoakResult, Verification } from "@effectively-once/local-cloud/harness";

/** One invariant of the run: what was checked, how many broke it, a few examples. */
export interface SoakCheck {
  readonly name: string;
  readonly failures: number;
  readonly examples: readonly string[];
}

export interface SoakReport {
  readonly ok: boolean;
  readonly checks: readonly SoakCheck[];
  /** Messages per second from the first send until every message had a fate (cold starts included). */
  readonly throughput: number;
  readonly faultsByKind: Record<string, number>;
  readonly text: string;
}

/** A check over the ids that broke it (the soak's and `--target aws`'s reports alike). */
export function check(name: string, ids: readonly string[]): SoakCheck {
  return { name, failures: ids.length, examples: ids.slice(0, 5) };
}

/** A count as the reports' tables print it. */
export const n = (value: number) => value.toLocaleString("en-US");

/** The verification's figures as both JSON forms (the soak's and `--target aws`'s) report them: the lists as counts. */
export function verificationFigures(v: Verification, throughput: number) {
  return {
    sent: v.sent,
    uniqueKeys: v.uniqueKeys,
    applied: v.applied,
    quarantinedByReason: v.quarantinedByReason,
    lost: v.lost.length,
    doubleApplied: v.doubleApplied.length,
    downstreamCalls: v.downstreamCalls,
    repeatedCalls: v.repeatedCalls,
    latencyMs: v.latencyMs,
    throughputPerSecond: Number(throughput.toFixed(2)),
  };
}

/** The end-of-run table and the invariant checks of a soak. */
export function buildSoakReport(result: SoakResult): SoakReport {
  const { verification: v, counts, stats, fates, ledger, mix, timings } = result;
  const throughput = perSecond(v.sent, timings.settleMs);
  const faultsByKind: Record<string, number> = { ...stats.faults?.byKind };
  if (stats.visibilityExpiredEarly > 0) faultsByKind["sqs.visibility-expired-early"] = stats.visibilityExpiredEarly;
  const checks = [
    check("lost (no fate: not applied, not a duplicate of an applied message, not in the DLQ)", v.lost),
    check("double-applied (keys applied more than once)", v.doubleApplied),
    check("ledger items without a valid expiresAt (epoch seconds within the retention)", ledger.badTtl),
    check("invalid messages not quarantined as invalid-message", fates.invalidMisfiled),
    check("rejected messages not quarantined as rejected", fates.rejectedMisfiled),
  ];
  const ok = checks.every((c) => c.failures === 0);
  const invalidSent = mix[LoadKind.InvalidJson] + mix[LoadKind.MissingField];
  const expected: Record<string, string> = {
    "invalid-message": `${invalidSent} invalid sent`,
    rejected: `${mix[LoadKind.Rejected]} rejected sent`,
    "payload-mismatch": `${mix[LoadKind.Conflict]} conflicts sent`,
    "retries-exhausted": "moved by the queue's redrive",
  };
  const reasons = Object.keys(v.quarantinedByReason).sort();
  const fn = Object.values(stats.functions)[0];
  const rows: (string | number)[][] = [
    ["messages sent", n(v.sent), `${n(mix[LoadKind.ConcurrentDuplicate] + mix[LoadKind.LateDuplicate])} duplicates, ${n(invalidSent)} invalid, ${n(mix[LoadKind.Conflict])} conflicts, ${n(mix[LoadKind.Rejected])} rejected`],
    ["unique business keys", n(v.uniqueKeys), ""],
    ["applied (one effect per key)", n(v.applied), ""],
    ["duplicates acknowledged", n(counts.duplicate), "record outcomes"],
    ["retried (deliveries that came back)", n(counts.retry), "record outcomes"],
    ...reasons.map((r) => [`quarantined: ${r}`, n(v.quarantinedByReason[r]), expected[r] ?? ""]),
    ...(reasons.length ? [["", "", "(a message delivered twice at once can be quarantined twice)"]] : []),
    ["LOST", n(v.lost.length), "must be 0"],
    ["DOUBLE-APPLIED", n(v.doubleApplied.length), "must be 0"],
    ["ledger items / without valid TTL", `${n(ledger.items)} / ${n(ledger.badTtl.length)}`, `${n(ledger.inProgress)} still IN_PROGRESS`],
    ["downstream calls", n(v.downstreamCalls), `${n(v.repeatedCalls)} repeats answered by the downstream's idempotency key`],
    ["latency send → effect p50 / p95 / p99", `${n(v.latencyMs.p50)} / ${n(v.latencyMs.p95)} / ${n(v.latencyMs.p99)} ms`, `max ${n(v.latencyMs.max)} ms`],
    ["throughput", `${throughput.toFixed(1)} msg/s`, `${(timings.settleMs / 1000).toFixed(1)} s from first send to settled (publishing took ${(timings.publishMs / 1000).toFixed(1)} s)`],
    ["executions", n(stats.executions.started), `${n(stats.executions.failed)} failed, ${n(stats.executions.timedOut)} timed out`],
    ...(fn ? [["function invocations", n(fn.invocations), `${fn.coldStarts} cold starts, ${fn.crashes} crashes, ${fn.timeouts} timeouts, ${fn.errors} errors`]] : []),
    ["faults injected", n(Object.values(faultsByKind).reduce((a, b) => a + b, 0)), `profile ${result.options.faultProfile}, seed ${result.options.seed}`],
    ...Object.keys(faultsByKind)
      .sort()
      .map((kind) => [`  ${kind}`, n(faultsByKind[kind]), ""]),
  ];
  const lines = [formatTable(rows, ["soak", "value", "note"], ["left", "right", "left"]), ""];
  for (const c of checks) lines.push(`${c.failures === 0 ? "✔" : "✘"} ${c.failures} ${c.name}${c.failures ? ` (e.g. ${c.examples.join(", ")})` : ""}`);
  lines.push("", ok ? "soak passed: every invariant held" : "soak FAILED: an invariant broke");
  return { ok, checks, throughput, faultsByKind, text: lines.join("\n") };
}

/** The JSON form of a soak (`--json`): options, mix, checks, figures and the cloud's own counters. */
export function soakJson(result: SoakResult, report: SoakReport): Record<string, unknown> {
  return {
    ok: report.ok,
    options: result.options,
    mix: result.mix,
    faultRules: result.faultRules,
    checks: report.checks,
    figures: {
      ...verificationFigures(result.verification, report.throughput),
      duplicatesAcknowledged: result.counts.duplicate,
      retried: result.counts.retry,
      faultsByKind: report.faultsByKind,
      ledger: { items: result.ledger.items, inProgress: result.ledger.inProgress, badTtl: result.ledger.badTtl.length },
    },
    timings: result.timings,
    cloud: {
      outcomes: result.stats.outcomes,
      executions: result.stats.executions,
      functions: result.stats.functions,
      pipes: result.stats.pipes,
      dynamodbRequests: result.stats.dynamodbRequests,
    },
  };
}
