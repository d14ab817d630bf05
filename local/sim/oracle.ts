/**
 * The reference model: what the pipeline MUST do with a stream, from the intended semantics alone (business key =
 * RFC 8785 text of the array of key parts; field rules; canonical numbers; memory that outlives every copy), never
 * from the implementation. `expectations()` says each message's allowed fates; `violations()` compares a run with
 * them and with each key's allowed charge count.
 */
import { Fate, type Observation, type Scenario } from "./scenario";

/** The payments pipeline's identity and rules (issue 11's decisions). */
export const PAYMENTS_RULES = {
  keyParts: ["tenantId", "orderId"],
  payloadFields: ["amount", "currency"],
  maxKeyBytes: 1024,
  maxMessageBytes: 262_144,
  /** Nesting beyond this is "deep": invalid-message on first delivery. Generated bodies are either ≤ 10 or ≥ 10,000 deep. */
  maxDepth: 1000,
} as const;

export interface OracleConfig {
  /** How long both layers remember a key (ledger retention = Powertools expiry). */
  readonly retentionMs: number;
  /** The source queue's retention: the longest a message can wait before its last delivery. */
  readonly queueRetentionMs: number;
}

export type Verdict =
  | { readonly kind: "refused"; readonly why: string }
  | { readonly kind: "invalid"; readonly why: string }
  | { readonly kind: "valid"; readonly key: string; readonly payload: string; readonly amount: number; readonly currency: string };

// SQS: #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF.
const SQS_INVALID = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

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
export function judge(body: string): Verdict {
  if (Buffer.byteLength(body) > PAYMENTS_RULES.maxMessageBytes) return { kind: "refused", why: "body over 262,144 bytes" };
  if (body.length === 0 || SQS_INVALID.test(body)) return { kind: "refused", why: "characters SQS refuses" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { kind: "invalid", why: "not JSON" };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { kind: "invalid", why: "not a JSON object" };
  if (depth(parsed) > PAYMENTS_RULES.maxDepth) return { kind: "invalid", why: "nested too deep" };
  const o = parsed as Record<string, unknown>;
  for (const field of PAYMENTS_RULES.keyParts) {
    if (typeof o[field] !== "string" || o[field] === "") return { kind: "invalid", why: `${field} must be a non-empty string` };
  }
  if (typeof o.amount !== "number" || !Number.isSafeInteger(o.amount) || o.amount < 1) return { kind: "invalid", why: "amount must be a safe integer >= 1" };
  if (typeof o.currency !== "string" || !/^[A-Z]{3}$/.test(o.currency)) return { kind: "invalid", why: "currency must be 3 capital letters" };
  // RFC 8785 of an array of strings is JSON.stringify's text (lone surrogates escaped as \udXXX).
  const key = JSON.stringify(PAYMENTS_RULES.keyParts.map((f) => o[f]));
  if (Buffer.byteLength(key) > PAYMENTS_RULES.maxKeyBytes) return { kind: "invalid", why: "key over 1,024 bytes" };
  return { kind: "valid", key, payload: JSON.stringify({ amount: o.amount, currency: o.currency }), amount: o.amount, currency: o.currency };
}

export interface Violation {
  readonly message?: number;
  readonly key?: string;
  readonly what: string;
}

/** Bodies of the scenario's sends, in send order. */
export function sentBodies(scenario: Scenario): string[] {
  return scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
}

/** Compares one run with the model. Empty = the run kept every promise. */
export function violations(scenario: Scenario, obs: Observation, config: OracleConfig): Violation[] {
  const bodies = sentBodies(scenario);
  const verdicts = bodies.map(judge);
  const out: Violation[] = [];
  const byKey = new Map<string, number[]>();
  verdicts.forEach((v, i) => {
    if (v.kind === "valid") byKey.set(v.key, [...(byKey.get(v.key) ?? []), i]);
  });
  const faultedKeys = new Set<string>();
  verdicts.forEach((v, i) => {
    if (v.kind === "valid" && obs.messages[i]?.faulted) faultedKeys.add(v.key);
  });
  // An operator's release of a live claim lets a second message run concurrently: the second layer then decides.
  const releasedKeys = new Set(scenario.ops.flatMap((o) => (o.op === "release" && verdicts[o.message]?.kind === "valid" ? [(verdicts[o.message] as { key: string }).key] : [])));

  // Charges: only valid messages, each key at most once per memory window, with a payload one of its messages carried.
  const chargesByKey = new Map<string, Observation["charges"][number][]>();
  for (const charge of obs.charges) {
    const v = verdicts[charge.message];
    if (!v || v.kind !== "valid") {
      out.push({ message: charge.message, what: `charged although the message is ${v ? v.kind + " (" + v.why + ")" : "unknown"}` });
      continue;
    }
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
      if (sentAt < sorted[i - 1].at + config.retentionMs - config.queueRetentionMs) {
        out.push({ message: sorted[i].message, key, what: `key charged again (charge ${i + 1}) by a message sent ${fmt(sentAt - sorted[i - 1].at)} after the earlier charge, within what the pipeline must remember` });
      }
    }
  }

  verdicts.forEach((v, i) => {
    const seen = obs.messages[i];
    if (!seen) return;
    const allowed = new Set<Fate>();
    if (v.kind === "refused") allowed.add(Fate.RefusedAtSend);
    else if (v.kind === "invalid") allowed.add(Fate.Invalid);
    else {
      const charged = chargesByKey.get(v.key) ?? [];
      // Acked (applied, or recognised as a duplicate) when its payload is the one its key was charged with; a
      // conflict when the key was charged with another payload. Nothing charged and no fault: the message was lost.
      if (charged.some((c) => c.amount === v.amount && c.currency === v.currency)) allowed.add(Fate.Acked);
      if (charged.some((c) => c.amount !== v.amount || c.currency !== v.currency)) allowed.add(Fate.Mismatch);
      if (faultedKeys.has(v.key) || releasedKeys.has(v.key)) {
        // Faults on the key may exhaust the receives; a takeover after a fault may meet the downstream's own record.
        allowed.add(Fate.RetriesExhausted);
        allowed.add(Fate.Rejected);
        allowed.add(Fate.Mismatch);
      }
    }
    if (!allowed.has(seen.fate)) {
      const key = v.kind === "valid" ? v.key : undefined;
      const what =
        allowed.size > 0
          ? `fate ${seen.fate}, expected ${[...allowed].join(" | ")}${v.kind === "valid" ? "" : ` (${v.why})`}`
          : `fate ${seen.fate}, but its key was never charged: a valid message must be applied once or acknowledged as a duplicate of an applied one`;
      out.push({ message: i, key, what });
    } else if (v.kind === "valid" && seen.fate === Fate.Acked && (chargesByKey.get(v.key) ?? []).length === 0) {
      out.push({ message: i, key: v.key, what: "acknowledged, but its key was never charged" });
    }
  });
  return out;
}

function fmt(ms: number): string {
  return ms >= 86_400_000 ? `${(ms / 86_400_000).toFixed(1)} d` : `${Math.round(ms / 1000)} s`;
}

/** Per key, the charge counts the model allows for this run: [min, max]. */
export function allowedCharges(scenario: Scenario, obs: Observation): Map<string, [number, number]> {
  const verdicts = sentBodies(scenario).map(judge);
  const out = new Map<string, [number, number]>();
  verdicts.forEach((v, i) => {
    if (v.kind !== "valid") return;
    const [min, max] = out.get(v.key) ?? [0, 1];
    out.set(v.key, [obs.messages[i]?.fate === Fate.Acked ? 1 : min, max]);
  });
  return out;
}
