import { formatTable } from "@effectively-once/local-cloud/harness";
import { perSecond } from "./bench-math";
import { LoadKind } from "@effectively-once/local-cloud/harness";
import { LoadTool } from "./remote-options";
import type { RemoteResult } from "./remote-run";
import type { RunEstimate } from "./remote-plan";
import { check, n, verificationFigures, type SoakCheck } from "./soak-report";

/** What a deployed stack does not expose to a client holding only its outputs file: reported, never guessed. */
const NOT_CHECKABLE_REMOTELY: readonly string[] = [
  "each delivery's outcome (duplicate acknowledged, retried): the local cloud's execution events; on AWS they live in the Express executions' CloudWatch logs",
  "executions failed or timed out, function invocations, cold starts, crashes: CloudWatch metrics and logs, not stack outputs",
  "DynamoDB calls per message, the storage floor, CPU profiles: ConsumedCapacity and the hosts are AWS's (npx effectively-once bench measures them locally)",
  "every ledger item's TTL: only this run's keys are read (a Scan would read, and bill, every other item in the table)",
  "behaviour under faults: fault injection needs the local cloud (npx effectively-once soak without --target)",
];

export interface RemoteReport {
  readonly ok: boolean;
  readonly checks: readonly SoakCheck[];
  /** Messages per second from the first send to the last effect applied. */
  readonly throughput: number;
  readonly text: string;
}


/** The invariants checked against the deployed stack's queue, DLQ, ledger, Powertools table and effects table. */
function checksOf(result: RemoteResult): SoakCheck[] {
  const c = result.checks;
  const out: SoakCheck[] = [];
  if (c.effectsChecked) {
    out.push(
      check("lost (no fate: not applied with its payload, not a duplicate of an applied message, not in the DLQ)", c.verification.lost),
      check("double-applied (a key with more than one EFFECT item or APPLIED call)", c.verification.doubleApplied),
    );
  }
  out.push(
    check("applied keys without a COMPLETED ledger claim", c.ledger.appliedNotCompleted),
    check("ledger claims of this run without a valid expiresAt (epoch seconds within the retention)", c.ledger.badTtl),
    check("applied keys without a COMPLETED Powertools record", c.powertoolsMissing),
    check("invalid messages not quarantined as invalid-message", c.fates.invalidMisfiled),
    check("rejected messages not quarantined as rejected", c.fates.rejectedMisfiled),
  );
  if (!result.settled) out.push(check("the queue was not empty at the settle deadline", ["queue"]));
  return out;
}

/** The end-of-run table of `--target aws`: what was sent, what the stores say, each check, and what could not be checked. */
export function buildRemoteReport(result: RemoteResult, estimate?: RunEstimate): RemoteReport {
  const { checks: c, mix, options: o, timings } = result;
  const v = c.verification;
  const checks = checksOf(result);
  const ok = checks.every((x) => x.failures === 0);
  const windowMs = c.lastEffectAt > timings.startedAt ? c.lastEffectAt - timings.startedAt : timings.settleMs;
  const throughput = perSecond(v.sent, windowMs);
  const invalidSent = mix[LoadKind.InvalidJson] + mix[LoadKind.MissingField];
  const reasons = Object.keys(v.quarantinedByReason).sort();
  const rows: (string | number)[][] = [
    ["target", result.target, `run id ${o.runId}, seed ${o.seed}`],
    ["messages sent", n(v.sent), `${n(mix[LoadKind.ConcurrentDuplicate] + mix[LoadKind.LateDuplicate])} duplicates, ${n(invalidSent)} invalid, ${n(mix[LoadKind.Conflict])} conflicts, ${n(mix[LoadKind.Rejected])} rejected`],
    ["unique business keys", n(v.uniqueKeys), ""],
    ...(c.effectsChecked ? [["applied (one effect per key)", n(v.applied), "effects table, Query per key"]] : [["applied", "not checked", "the stack has no effects_table_name output"]]),
    ...reasons.map((r) => [`quarantined: ${r}`, n(v.quarantinedByReason[r]), "DLQ peek"]),
    ["LOST", c.effectsChecked ? n(v.lost.length) : "not checked", "must be 0"],
    ["DOUBLE-APPLIED", c.effectsChecked ? n(v.doubleApplied.length) : "not checked", "must be 0"],
    ["ledger claims / IN_PROGRESS / bad TTL", `${n(c.ledger.items)} / ${n(c.ledger.inProgress)} / ${n(c.ledger.badTtl.length)}`, "GetItem per key"],
    ["Powertools records", n(c.powertoolsRecords), "GetItem per key"],
    ["DLQ messages peeked / this run's", `${n(c.dlq.scanned)} / ${n(c.dlq.ours)}`, c.dlq.truncated ? "TRUNCATED: the DLQ holds more" : "nothing consumed"],
    ["downstream calls", n(v.downstreamCalls), `${n(v.repeatedCalls)} repeats answered by the downstream's idempotency key`],
    ["latency send → effect p50 / p95 / p99", `${n(v.latencyMs.p50)} / ${n(v.latencyMs.p95)} / ${n(v.latencyMs.p99)} ms`, `max ${n(v.latencyMs.max)} ms (the function's clock against this host's)`],
    ["throughput", `${throughput.toFixed(1)} msg/s`, `first send to last effect; sent at ${o.rate} msg/s in ${(timings.publishMs / 1000).toFixed(1)} s`],
    ["run", `${(timings.runMs / 1000).toFixed(1)} s`, `${result.rounds} check round(s), quiet window ${o.quietSeconds} s`],
    ...(estimate ? [["estimated cost", `$${estimate.totalUsd.toFixed(6)}`, "printed before the run (cost model + this tool's calls)"]] : []),
  ];
  const title = o.tool === LoadTool.Bench ? "bench (aws)" : "soak (aws)";
  const lines = [formatTable(rows, [title, "value", "note"], ["left", "right", "left"]), ""];
  for (const x of checks) lines.push(`${x.failures === 0 ? "✔" : "✘"} ${x.failures} ${x.name}${x.failures ? ` (e.g. ${x.examples.join(", ")})` : ""}`);
  if (!c.effectsChecked) lines.push("- lost / double-applied: not checked (no effects table: nothing a client can read records the side effect)");
  lines.push("", "Not checkable against a deployed stack from its outputs (see docs/load-on-aws.md):", ...NOT_CHECKABLE_REMOTELY.map((line) => `  - ${line}`));
  lines.push("", ok ? `${o.tool} passed: every invariant checked held` : `${o.tool} FAILED: an invariant broke`);
  return { ok, checks, throughput, text: lines.join("\n") };
}

/** The JSON form (`--json`, `--json-file`). */
export function remoteJson(result: RemoteResult, report: RemoteReport, estimate?: RunEstimate): Record<string, unknown> {
  return {
    ok: report.ok,
    target: result.target,
    options: result.options,
    mix: result.mix,
    checks: report.checks,
    notCheckable: NOT_CHECKABLE_REMOTELY,
    figures: {
      ...verificationFigures(result.checks.verification, report.throughput),
      ledger: { items: result.checks.ledger.items, inProgress: result.checks.ledger.inProgress, badTtl: result.checks.ledger.badTtl.length },
      powertoolsRecords: result.checks.powertoolsRecords,
      dlq: result.checks.dlq,
    },
    settled: result.settled,
    rounds: result.rounds,
    timings: result.timings,
    estimate,
  };
}
