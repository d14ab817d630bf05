/**
 * The reference model: what the pipeline MUST do with a stream, from the intended semantics alone (business key =
 * RFC 8785 text of the array of key parts; field rules; canonical numbers; memory that outlives every copy), never
 * from the implementation. `expectations()` says each message's allowed fates; `violations()` compares a run with
 * them and with each key's allowed charge count.
 */
import { ALLOWANCES, allowedBy, consideredText, type AllowanceRule, type MessageFacts } from "./allowances";
import { RUN_REPEATING_FAULTS } from "./fault-classes";
import { protocolViolations } from "./protocol";
import { redriveViolations } from "./redrive";
import { movedOnAWitness, secondLayerViolations } from "./second-layer";
import { expiryVerdict } from "./retention";
import { setAsideByOptOuts, type OptOut, type OptOuts } from "./opt-outs";
import { attributeBytes, attributeProblem, SQS_INVALID_CHARACTER } from "../sqs/attributes";
import type { Verdict, Violation } from "./verdicts";
import { modelKey } from "./key";
import { deduplicationAllowed, orderViolations, type FifoModel } from "./order";

export type { Verdict, Violation };
import { Fate, type MessageAttribute, type Observation, type Scenario } from "../scenario/shape";
import { PAYMENTS_RULES, ruleProblem, type OracleRules } from "./rules";

export interface OracleConfig {
  /** How long both layers remember a key (ledger retention = Powertools expiry). */
  readonly retentionMs: number;
  /** The source queue's retention: the longest a message can wait before its last delivery. */
  readonly queueRetentionMs: number;
  readonly rules?: OracleRules;
  /** The DLQ's retention: a quarantined copy older than this is gone (AWS drops it). */
  readonly deadLetterRetentionMs?: number;
  /** How long a claim holds its key when its worker is gone (the construct's lease; default 90 s). */
  readonly leaseMs?: number;
  /** The oldest-message-age alarm's threshold: the longest wait before receives the queue's retention budgets. */
  readonly ageAlarmMs?: number;
  /** The rules that may explain a fate (oracle/allowances.ts); another set only to compare models (oracle/allowances-wide.ts). */
  readonly allowances?: readonly AllowanceRule[];
  /** SQS's own actions the stack's props let through (oracle/opt-outs.ts); default: none. */
  readonly optOuts?: OptOuts;
  /** Told of each violation a named opt-out sets aside (the search counts them). */
  readonly onSetAside?: (rule: OptOut, violation: Violation) => void;
  /** FIFO mode's queue settings (oracle/order.ts); undefined: standard queues. */
  readonly fifo?: FifoModel;
}

const DEFAULT_LEASE_MS = 90_000;

function depth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (d > max) max = d;
    if (v !== null && typeof v === "object") for (const child of Object.values(v)) stack.push([child, d + 1]);
  }
  return max;
}

/** The fate a message's content alone decides. */
export function judge(body: string, rules: OracleRules = PAYMENTS_RULES): Verdict {
  // Bodies repeat across a search's scenarios (small pools) and some take a walk of 20,000 levels: judge each once.
  let known = verdicts.get(rules);
  if (!known) verdicts.set(rules, (known = new Map()));
  const cached = known.get(body);
  if (cached) return cached;
  if (known.size >= 5000) known.clear();
  const verdict = judgeOnce(body, rules);
  known.set(body, verdict);
  return verdict;
}

const verdicts = new WeakMap<OracleRules, Map<string, Verdict>>();

/** The fate a send alone decides: SQS's attribute rules and size (body and attributes together), then the body. */
export function judgeSend(body: string, attributes: readonly MessageAttribute[] | undefined, rules: OracleRules = PAYMENTS_RULES): Verdict {
  if (attributes !== undefined && attributes.length > 0) {
    const problem = attributeProblem(attributes);
    if (problem) return { kind: "refused", why: `attributes SQS refuses: ${problem}` };
    if (Buffer.byteLength(body) + attributeBytes(attributes) > rules.maxMessageBytes) return { kind: "refused", why: `body and attributes over ${rules.maxMessageBytes} bytes` };
  }
  const verdict = judge(body, rules);
  return verdict.kind !== "refused" && rules.passes?.(body, attributes) === false ? { kind: "filtered", why: "the pipe's filter drops it" } : verdict;
}

/** The model's verdict on each of the scenario's sends, in send order. */
export function sendVerdicts(scenario: Scenario, rules?: OracleRules): Verdict[] {
  return scenario.ops.flatMap((o) => (o.op === "send" ? [judgeSend(o.body, o.attributes, rules)] : []));
}

function judgeOnce(body: string, rules: OracleRules): Verdict {
  if (Buffer.byteLength(body) > rules.maxMessageBytes) return { kind: "refused", why: `body over ${rules.maxMessageBytes} bytes` };
  if (body.length === 0 || SQS_INVALID_CHARACTER.test(body)) return { kind: "refused", why: "characters SQS refuses" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: "invalid", why: "not JSON" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { kind: "invalid", why: "not a JSON object" };
  if (depth(parsed) > rules.maxDepth) return { kind: "invalid", why: "nested too deep" };
  const o = parsed as Record<string, unknown>;
  for (const [field, rule] of Object.entries(rules.fields)) {
    const problem = ruleProblem(o[field], rule);
    if (problem) return { kind: "invalid", why: `${field} ${problem}` };
  }
  const key = keyText(o, rules);
  if (Buffer.byteLength(key) > rules.maxKeyBytes) return { kind: "invalid", why: `key over ${rules.maxKeyBytes.toLocaleString("en-US")} bytes` };
  const payload = Object.fromEntries([...rules.payloadFields].sort().map((f) => [f, o[f]]));
  return { kind: "valid", key, payload: JSON.stringify(payload), ...((rules.chargeOf?.(o) ?? { amount: o.amount, currency: o.currency }) as { amount: number; currency: string }) };
}


/** The model's key of a body (oracle/key.ts). */
function keyText(o: Record<string, unknown>, rules: OracleRules): string {
  return modelKey(o, rules.keyParts, rules.keyTerms, rules.fields);
}

/**
 * The keys the operator's releases name. The operator takes the key parts from the message's body whether or not
 * the pipeline accepted it (an invalid-message body with a valid key's parts names that key), so any JSON object
 * names the key of its parts.
 */
function operatorReleasedKeys(scenario: Scenario, bodies: readonly string[], rules: OracleRules): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const op of scenario.ops) {
    if (op.op !== "release" || bodies[op.message] === undefined) continue;
    try {
      const o = JSON.parse(bodies[op.message]) as unknown;
      if (o !== null && typeof o === "object" && !Array.isArray(o)) keys.add(keyText(o as Record<string, unknown>, rules));
    } catch {
      // Not JSON: the release names no key (the tool derives none).
    }
  }
  return keys;
}

/** Bodies of the scenario's sends, in send order. */
export function sentBodies(scenario: Scenario): string[] {
  return scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
}

/** Compares one run with the model. Empty = the run kept every promise. */
export function violations(scenario: Scenario, obs: Observation, config: OracleConfig): Violation[] {
  const bodies = sentBodies(scenario);
  const verdicts = sendVerdicts(scenario, config.rules);
  const out: Violation[] = [];
  const byKey = new Map<string, number[]>();
  verdicts.forEach((v, i) => {
    if (v.kind === "valid") byKey.set(v.key, [...(byKey.get(v.key) ?? []), i]);
  });
  // Keys a fault hit that may make the function run again without a charge (oracle/fault-classes.ts): only those stand
  // aside from the first layer's count below.
  const repeatedKeys = new Set<string>();
  verdicts.forEach((v, i) => {
    if (v.kind === "valid" && (obs.messages[i]?.faults ?? []).some((k) => RUN_REPEATING_FAULTS.includes(k))) repeatedKeys.add(v.key);
    // A batch-mate's fault stopped the invocation after this record ran: it runs again alone (function/batch.ts).
    if (v.kind === "valid" && obs.batchReruns?.includes(i)) repeatedKeys.add(v.key);
  });
  // An operator's release of a live claim lets a second message run concurrently: the second layer then decides.
  const releasedKeys = operatorReleasedKeys(scenario, bodies, config.rules ?? PAYMENTS_RULES);

  // Charges: only valid messages, each key at most once per memory window, with a payload one of its messages carried.
  const chargesByKey = new Map<string, Observation["charges"][number][]>();
  for (const charge of obs.charges) {
    const v = verdicts[charge.message];
    if (!v || v.kind !== "valid") {
      out.push({ message: charge.message, what: `charged although the message is ${v ? v.kind + " (" + v.why + ")" : "unknown"}` });
      continue;
    }
    if (refusedDownstream(v, config.rules)) out.push({ message: charge.message, key: v.key, what: `charged although the downstream refuses ${v.payload}` });
    if (charge.amount !== v.amount || charge.currency !== v.currency) {
      out.push({ message: charge.message, key: v.key, what: `charged ${String(charge.amount)} ${String(charge.currency)}, the message says ${v.amount} ${v.currency}` });
    }
    chargesByKey.set(v.key, [...(chargesByKey.get(v.key) ?? []), charge]);
  }
  for (const [key, charges] of chargesByKey) {
    const sorted = [...charges].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i++) {
      // A later charge is legitimate only for a message first sent after the memory of the earlier one may end
      // (memory R from the charge, minus the longest a message may wait in the queue).
      const sentAt = obs.messages[sorted[i].message].sentAt;
      if (rolledBackBetween(obs, sorted[i - 1].at, sorted[i], config.queueRetentionMs)) continue;
      if (sentAt < sorted[i - 1].at + config.retentionMs - config.queueRetentionMs) {
        const gap = sentAt - sorted[i - 1].at;
        const when = gap >= 0 ? `${fmt(gap)} after` : `${fmt(-gap)} before`;
        out.push({ message: sorted[i].message, key, what: `key charged again (charge ${i + 1}, ${fmt(sorted[i].at - sorted[i - 1].at)} after the first) by a message first sent ${when} the earlier charge: within what the pipeline must remember` });
      }
    }
  }

  // The first layer decides duplicates and conflicts without calling the function: with no stall, no release and no
  // fault that repeats a run on a key, the function runs once per charge, plus once per delivery of a message the downstream refuses —
  // counting only messages first sent while the key's first charge must still be remembered.
  if (!scenario.ops.some((o) => o.op === "stall")) {
    for (const [key, members] of byKey) {
      if (repeatedKeys.has(key) || releasedKeys.has(key)) continue;
      const charges = chargesByKey.get(key) ?? [];
      // After a rollback the function honours none of its earlier records: the second layer decides afresh.
      if (charges.length > 0 && (obs.rollbacks ?? []).some((at) => at > Math.min(...charges.map((c) => c.at)))) continue;
      const until = charges.length > 0 ? Math.min(...charges.map((c) => c.at)) + config.retentionMs - config.queueRetentionMs : Number.POSITIVE_INFINITY;
      const inWindow = new Set(members.filter((i) => (obs.messages[i]?.sentAt ?? 0) < until));
      const runs = obs.handlerRuns.filter((r) => inWindow.has(r.message)).length;
      // A message the downstream refuses reaches it on each delivery (a redrive brings it back).
      const refusals = [...inWindow].filter((i) => refusedDownstream(verdicts[i] as Verdict & { kind: "valid" }, config.rules));
      const allowed = charges.filter((c) => inWindow.has(c.message)).length + obs.deliveries.filter((d) => refusals.includes(d.message)).length;
      if (runs > allowed) out.push({ key, what: `the function ran ${runs} times for a key charged ${charges.length} time(s): a duplicate or conflict reached the second layer` });
    }
  }

  const rules = config.allowances ?? ALLOWANCES;
  // FIFO: a send SQS deduplicated repeats the id of one it accepted within 5 minutes (oracle/order.ts).
  const deduplicated = config.fifo ? deduplicationAllowed(scenario, obs, config.fifo) : new Set<number>();
  verdicts.forEach((v, i) => {
    const seen = obs.messages[i];
    if (!seen) return;
    const facts: MessageFacts = {
      scenario, obs, verdicts, bodies, message: i, released: releasedKeys, leaseMs: config.leaseMs ?? DEFAULT_LEASE_MS, deadLetterRetentionMs: config.deadLetterRetentionMs, ageAlarmMs: config.ageAlarmMs, queueRetentionMs: config.queueRetentionMs,
      charges: v.kind === "valid" ? (chargesByKey.get(v.key) ?? []) : [],
      downstreamRefuses: v.kind === "valid" && refusedDownstream(v, config.rules),
    };
    // The content decides refused and invalid; every other fate needs a named rule that explains it.
    const allowed = allowedBy(rules, facts);
    if (v.kind === "refused") allowed.set(Fate.RefusedAtSend, ["content"]);
    else if (v.kind === "invalid") allowed.set(Fate.Invalid, ["content"]);
    else if (v.kind === "filtered") allowed.set(Fate.Filtered, ["content"]);
    if (deduplicated.has(i)) allowed.set(Fate.Deduplicated, ["sqs-deduplicated"]);
    if (!allowed.has(seen.fate)) {
      const key = v.kind === "valid" ? v.key : undefined;
      const considered = consideredText(rules, seen.fate);
      // Why an expiry is not allowed, where oracle/retention.ts can say (the retention-ran-out rule's own reading).
      const expiryWhy = seen.fate === Fate.Expired ? expiryVerdict(obs, i, config).why : undefined;
      const what =
        allowed.size > 0
          ? `fate ${seen.fate}, expected ${[...allowed.keys()].join(" | ")}${v.kind === "valid" ? "" : ` (${v.why})`}; ${considered}${expiryWhy ? `: ${expiryWhy}` : ""}`
          : `fate ${seen.fate}, but its key was never charged: a valid message must be applied once or acknowledged as a duplicate of an applied one; ${considered}${expiryWhy ? `; ${expiryWhy}` : ""}`;
      out.push({ message: i, key, what });
    } else if (v.kind === "valid" && seen.fate === Fate.Acked && (chargesByKey.get(v.key) ?? []).length === 0) {
      out.push({ message: i, key: v.key, what: "acknowledged, but its key was never charged" });
    }
  });
  out.push(...protocolViolations(scenario, verdicts, releasedKeys, obs, config.leaseMs ?? DEFAULT_LEASE_MS));
  out.push(...redriveViolations(obs, verdicts));
  out.push(...secondLayerViolations(obs, config.retentionMs, config.queueRetentionMs));
  out.push(...orderViolations(obs));
  const { kept, setAside } = setAsideByOptOuts(out, obs, verdicts, config.optOuts);
  for (const { rule, violation } of setAside) config.onSetAside?.(rule, violation);
  return kept;
}

/**
 * A rollback to the previous release between two charges of a key leaves only the ledger remembering it (the deployed
 * function honours none of the records written before: docs/upgrading.md, "Rolling back to release 0.2"), so a message
 * reaching it after the ledger lost the key is applied again: the rollback's documented cost, not the pipeline's
 * fault. A copy `ops dlq redrive` moved after the earlier charge is excused only if the age rule alone let it move
 * (first sent at most the source queue's retention before the redrive): an older one moved on a witness, and after a
 * rollback only the records the deployed function honours may be one (packages/ops/src/function-ids.ts).
 */
function rolledBackBetween(obs: Observation, earlier: number, charge: Observation["charges"][number], queueRetentionMs: number): boolean {
  if (!(obs.rollbacks ?? []).some((at) => at > earlier && at <= charge.at)) return false;
  return !movedOnAWitness(obs, charge.message, earlier, queueRetentionMs);
}

function refusedDownstream(v: Verdict & { kind: "valid" }, rules: OracleRules = PAYMENTS_RULES): boolean {
  const refuses = rules.downstreamRefuses;
  return refuses !== undefined && (JSON.parse(v.payload) as Record<string, unknown>)[refuses.field] === refuses.value;
}

function fmt(ms: number): string {
  return ms >= 86_400_000 ? `${(ms / 86_400_000).toFixed(1)} d` : `${Math.round(ms / 1000)} s`;
}
