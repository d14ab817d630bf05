import { createRng } from "../../local/faults";
import { businessKeyText } from "../../src/contract/canonical";
import { effectKey } from "../../src/contract/effects";

/** Why a sample message is in the stream, and so what must become of it. */
export const SampleKind = {
  Unique: "unique",
  ExactDuplicate: "exact-duplicate",
  ConcurrentDuplicate: "concurrent-duplicate",
  Conflict: "payload-conflict",
  InvalidJson: "invalid-json",
  MissingField: "missing-field",
  Rejected: "rejected-by-function",
} as const;
export type SampleKind = (typeof SampleKind)[keyof typeof SampleKind];

export interface SampleMessage {
  readonly kind: SampleKind;
  readonly body: string;
  /** `<tenantId>#<orderId>#<operation>` for bodies with a valid key. */
  readonly effectKey?: string;
  /** `amount|currency`, to tell a conflict from a duplicate. */
  readonly fingerprint?: string;
}

/** Two waves: the second is sent once the first is processed, so its duplicates are redeliveries after completion. */
export interface SampleStream {
  readonly waves: readonly (readonly SampleMessage[])[];
  /** The DLQ reasons this stream must produce. */
  readonly expectedQuarantine: Readonly<Record<string, number>>;
}

const CURRENCIES = ["EUR", "USD", "GBP"] as const;

interface Order {
  tenantId: string;
  orderId: string;
  amount: number;
  currency: string;
}

function message(kind: SampleKind, order: Order, operation: string): SampleMessage {
  return {
    kind,
    body: JSON.stringify(order),
    effectKey: effectKey(businessKeyText([order.tenantId, order.orderId]), operation),
    fingerprint: `${order.amount}|${order.currency}`,
  };
}

/**
 * A reproducible payments stream: unique charges, exact duplicates, concurrent duplicates (three copies in one
 * send batch), a payload conflict, bad JSON, a missing field and a charge the function rejects.
 */
export function sampleStream(options: { orders?: number; seed?: number | string; operation?: string; runId?: string } = {}): SampleStream {
  const orders = options.orders ?? 40;
  const operation = options.operation ?? "charge";
  const rng = createRng(options.seed ?? 1);
  const run = options.runId ?? "demo";
  const tenants = ["acme", "globex", "initech"];
  const all: Order[] = Array.from({ length: orders }, (_, i) => ({
    tenantId: tenants[i % tenants.length],
    orderId: `${run}-${String(i + 1).padStart(4, "0")}`,
    amount: 100 + Math.floor(rng.next() * 9900),
    currency: CURRENCIES[Math.floor(rng.next() * CURRENCIES.length)],
  }));
  const concurrent = all.slice(0, Math.min(3, orders));
  const wave1: SampleMessage[] = [];
  for (const order of all) {
    const copies = concurrent.includes(order) ? 3 : 1;
    for (let c = 0; c < copies; c++) wave1.push(message(c === 0 ? SampleKind.Unique : SampleKind.ConcurrentDuplicate, order, operation));
  }
  wave1.push({ kind: SampleKind.InvalidJson, body: `{"tenantId": "acme", "orderId": "${run}-broken", "amount": 12` });
  wave1.push({ kind: SampleKind.MissingField, body: JSON.stringify({ tenantId: "globex", amount: 500, currency: "EUR" }) });
  wave1.push(message(SampleKind.Rejected, { tenantId: "initech", orderId: `${run}-refund`, amount: 500, currency: "XXX" }, operation));

  const wave2: SampleMessage[] = all.filter((_, i) => i % 4 === 3).map((order) => message(SampleKind.ExactDuplicate, order, operation));
  const conflicted = all[Math.min(orders - 1, 4)];
  wave2.push(message(SampleKind.Conflict, { ...conflicted, amount: conflicted.amount + 1 }, operation));

  return { waves: [wave1, wave2], expectedQuarantine: { "invalid-message": 2, rejected: 1, "payload-mismatch": 1 } };
}
