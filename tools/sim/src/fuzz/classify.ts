/**
 * Names the hole a counterexample shows, from the scenario alone (for reports and the hunt mode): the classes of
 * issue 11. A violation no class explains is "other" — still a violation.
 */
import { PROTOTYPE_NAMES } from "../scenario/hostile-text";
import { sendVerdicts, sentBodies, type Violation } from "../oracle/model";
import { FaultKind, type Scenario } from "../scenario/shape";
import { SQS_INVALID_CHARACTER } from "../sqs/attributes";
import type { SimDomain } from "../domain/space";

export const HoleClass = {
  Separator: "separator-collision",
  Precision: "precision-collision",
  RedriveAfterRetention: "redrive-after-retention",
  Types: "type-disagreement",
  Limits: "size-or-depth-limit",
  Characters: "characters-in-quarantine",
  /** More identical copies in one batch than receives allowed: the copies behind a quarantined first one are retried. */
  QuarantinedLeaderFollowers: "quarantined-leader-followers",
  /** A body that is a name every object inherits (`__proto__`) acknowledged without being applied or quarantined. */
  PrototypeBodyLost: "prototype-body-lost",
  /** An execution that failed instead of answering, its whole batch retried (e.g. a body `hasOwnProperty`). */
  BatchFailed: "batch-failed",
  /** The operator's redrive acted on a value the producer set (an attribute named like the pipeline's own). */
  ForgedAttribute: "forged-attribute",
  /** A redriven copy charged its key again after a pipe outage held it: the ledger had lost the key, Powertools not. */
  LedgerLostRedrive: "ledger-lost-redrive",
  /** A message whose side effect returned an oversize result (a `result-*` fault) not acknowledged once. */
  OversizeResult: "oversize-result",
  /** A message aged out of the source queue before its receives ran out: it never reached the DLQ. */
  SourceRetention: "source-retention",
  /** A copy the queue moved to the DLQ aged out there (almost) at once: the DLQ counts from the first send. */
  DeadLetterRetention: "dead-letter-retention",
  /**
   * A batch holding a body thousands of levels deep, under a pipe filter (a drawn domain's): the local pipe's
   * recursive pattern matcher overflows its stack, so the whole batch comes back on every receive.
   */
  PipeFilterDepth: "pipe-filter-depth",
  /** A key charged again after a deploy renamed the function: the second layer forgot every key with the old name. */
  RenameReset: "rename-reset",
  /** A batch within the pipe's characters but over StartSyncExecution's bytes (multi-byte or escaped text): refused whole. */
  BatchBytes: "batch-bytes",
  /** A key field whose rule takes a string or an integer: 42 and "42", one identity, two keys. */
  KeyTypeSplit: "key-type-split",
  /** A key expression that calls something (a clock, random, uuid, a function): no pure function of the required fields. */
  ImpureKeyExpression: "impure-key-expression",
  /** A key expression that reads a field the requiredFields do not list (a producer's typo): many messages, one key. */
  UndeclaredKeyField: "undeclared-key-field",
  /** (a) A quarantined copy SQS moved back, dropped by the pipe's filter on a message attribute it no longer carries. */
  MovedBackFiltered: "moved-back-filtered",
  /** (b) A copy the DLQ's redrive policy moved straight back, its original enqueue time kept: it aged out on arrival. */
  MovedBackExpired: "moved-back-expired",
  /** (c) A copy moved back through a temporary queue (a new enqueue time) that charged or ran its key again. */
  MovedBackViaTemporary: "moved-back-via-temporary",
  /** (d) A copy the DLQ's redrive policy moved straight back (in FIFO mode with a new enqueue time) charged again. */
  MovedBackDirect: "moved-back-direct",
  Other: "other",
} as const;
export type HoleClass = (typeof HoleClass)[keyof typeof HoleClass];

function parsed(body: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(body) as unknown;
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The classes a failing scenario exhibits (several may apply); a drawn domain names its key's classes. */
export function classify(scenario: Scenario, found: readonly Violation[], domain?: SimDomain): HoleClass[] {
  const bodies = sentBodies(scenario);
  const verdicts = sendVerdicts(scenario);
  const classes = new Set<HoleClass>();
  const involved = new Set(found.flatMap((v) => (v.message === undefined ? [] : [v.message])));
  const valid = verdicts.flatMap((v, i) => (v.kind === "valid" ? [{ i, v, o: parsed(bodies[i]) as Record<string, unknown> }] : []));
  for (const a of valid) {
    for (const b of valid) {
      if (a.i >= b.i || !(involved.has(a.i) || involved.has(b.i))) continue;
      if (a.v.key !== b.v.key && `${a.o.tenantId}#${a.o.orderId}` === `${b.o.tenantId}#${b.o.orderId}`) classes.add(HoleClass.Separator);
      if (a.v.key === b.v.key && a.v.amount !== b.v.amount && a.v.amount.toPrecision(15) === b.v.amount.toPrecision(15)) classes.add(HoleClass.Precision);
    }
  }
  if (found.some((v) => v.what.includes("charged again")) && scenario.ops.some((o) => o.op === "redrive") && scenario.ops.some((o) => o.op === "jump")) {
    classes.add(HoleClass.RedriveAfterRetention);
  }
  for (const i of involved) {
    const v = verdicts[i];
    if (!v || v.kind !== "invalid") continue;
    if (/must be|capital/.test(v.why)) classes.add(HoleClass.Types);
    if (/over|deep/.test(v.why)) classes.add(HoleClass.Limits);
  }
  for (const i of involved) {
    const o = parsed(bodies[i]);
    if (o && [o.tenantId, o.orderId].some((p) => typeof p === "string" && SQS_INVALID_CHARACTER.test(p))) {
      classes.add(HoleClass.Characters);
    }
  }
  for (const v of found) {
    if (v.message === undefined || !v.what.startsWith("fate retries-exhausted")) continue;
    if (bodies.filter((b) => b === bodies[v.message as number]).length > 5) classes.add(HoleClass.QuarantinedLeaderFollowers);
  }
  const prototypeBody = (i: number): boolean => PROTOTYPE_NAMES.includes(bodies[i]);
  for (const v of found) {
    if (v.message !== undefined && prototypeBody(v.message) && v.what.startsWith("fate acked")) classes.add(HoleClass.PrototypeBodyLost);
    if (v.what.startsWith("an execution ended FAILED")) classes.add(HoleClass.BatchFailed);
    // The failed batch's records: retried on every receive, then moved by the queue.
    if (/^(fate retries-exhausted|handed back for a retry)/.test(v.what) && bodies.some((_, i) => prototypeBody(i))) classes.add(HoleClass.BatchFailed);
    if (v.what.startsWith("redrive-true-")) classes.add(HoleClass.ForgedAttribute);
    if (v.what.startsWith("fate expired") && v.what.includes("aged out of the source queue")) classes.add(HoleClass.SourceRetention);
    if (v.what.startsWith("fate expired") && v.what.includes("retries-exhausted copy reached the DLQ")) classes.add(HoleClass.DeadLetterRetention);
  }
  const sends = scenario.ops.flatMap((o) => (o.op === "send" ? [o] : []));
  const PIPELINE_NAMES = ["reason", "businessKey", "originalMessageId", "firstSentTimestamp", "detail"];
  if (found.some((v) => v.what.includes("charged again")) && [...involved].some((i) => sends[i]?.attributes?.some((a) => PIPELINE_NAMES.includes(a.name)))) {
    classes.add(HoleClass.ForgedAttribute);
  }
  const has = (op: string): boolean => scenario.ops.some((o) => o.op === op);
  if (found.some((v) => v.what.includes("charged again")) && has("redrive") && has("outage")) classes.add(HoleClass.LedgerLostRedrive);
  if (found.some((v) => v.what.includes("charged again") || v.what.startsWith("the side effect ran again")) && has("rename")) classes.add(HoleClass.RenameReset);
  const oversize = scenario.faults.filter((f) => f.kind === FaultKind.ResultOverPayload || f.kind === FaultKind.ResultOverItem).map((f) => f.message);
  const keyOf = (i: number): string | undefined => (verdicts[i]?.kind === "valid" ? (verdicts[i] as { key: string }).key : undefined);
  if (found.some((v) => oversize.some((i) => i === v.message || (v.key !== undefined && keyOf(i) === v.key)))) classes.add(HoleClass.OversizeResult);
  if (found.some((v) => /^(fate (retries-exhausted|expired)|handed back for a retry)/.test(v.what)) && bodies.some((b) => b.length > 20_000 && b.includes("[".repeat(10_000)))) classes.add(HoleClass.PipeFilterDepth);
  // Bodies padded to tens of kilobytes of multi-byte or escaped text (domain/messages.ts): a batch of a few is over the bytes.
  const heavy = bodies.filter((b) => b.length >= 10_000 && (Buffer.byteLength(b) > b.length || b.includes('\\"') || b.includes("\\n"))).length;
  if (heavy >= 2 && found.some((v) => /^(fate |handed back for a retry|an execution ended)/.test(v.what))) classes.add(HoleClass.BatchBytes);
  if (domain?.keyParts.some((f) => f.rule.type === "string-or-integer") && found.some((v) => /charged again|the function ran/.test(v.what))) classes.add(HoleClass.KeyTypeSplit);
  if (domain?.key?.extra.some(([, t]) => t.kind === "call")) classes.add(HoleClass.ImpureKeyExpression);
  if (domain?.key?.extra.some(([, t]) => t.kind === "typo")) classes.add(HoleClass.UndeclaredKeyField);
  // SQS's redrive-policy path (ops/redrive-policy-move.ts): issue 38's four histories (a)-(d).
  const moved = (via: "direct" | "temporary"): boolean => scenario.ops.some((o) => o.op === "redrive-policy" && o.via === via);
  const again = found.some((v) => v.what.includes("charged again"));
  if (found.some((v) => v.what.startsWith("fate filtered")) && (moved("direct") || moved("temporary"))) classes.add(HoleClass.MovedBackFiltered);
  if (found.some((v) => v.what.startsWith("fate expired")) && moved("direct")) classes.add(HoleClass.MovedBackExpired);
  if (again && moved("temporary")) classes.add(HoleClass.MovedBackViaTemporary);
  if (again && moved("direct")) classes.add(HoleClass.MovedBackDirect);
  if (classes.size === 0) classes.add(HoleClass.Other);
  return [...classes];
}
