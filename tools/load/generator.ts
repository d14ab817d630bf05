import { createRng } from "../../local/faults";
import { businessKeyText } from "../../src/contract/canonical";
import { effectKey } from "../../src/contract/effects";
import { REFUSED_CURRENCY } from "../../examples/payments/identity";

/** Why a message is in the load stream, and so what must become of it. */
export const LoadKind = {
  /** The first message of a business key. */
  Unique: "unique",
  /** The same body again, right behind the original (often in the same batch). */
  ConcurrentDuplicate: "concurrent-duplicate",
  /** The same body again, later (a redelivery after the original was processed). */
  LateDuplicate: "late-duplicate",
  /** The key of an earlier message with another amount: must never be applied. */
  Conflict: "payload-conflict",
  /** A body that is not JSON. */
  InvalidJson: "invalid-json",
  /** JSON without the business key fields. */
  MissingField: "missing-field",
  /** A charge the downstream refuses (a currency it does not take): quarantined as `rejected`. */
  Rejected: "rejected",
} as const;
export type LoadKind = (typeof LoadKind)[keyof typeof LoadKind];

/** One message to publish. */
export interface LoadMessage {
  readonly kind: LoadKind;
  readonly body: string;
  /** `<tenantId>#<orderId>#<operation>` for bodies with a valid key. */
  readonly effectKey?: string;
  /** `amount|currency`, to tell a conflict from a duplicate. */
  readonly fingerprint?: string;
}

export interface StreamOptions {
  /** Messages in all. */
  readonly messages: number;
  /** Share of messages that repeat an earlier body, 0..0.9. */
  readonly duplicateRatio: number;
  /** Share of invalid bodies (half bad JSON, half a missing key field). */
  readonly invalidRatio?: number;
  /** Share of payload conflicts (an earlier key with another amount). */
  readonly conflictRatio?: number;
  /** Share of charges the function rejects. */
  readonly rejectedRatio?: number;
  /** Share of duplicates sent right behind their original, the rest later (default 0.5). */
  readonly concurrentShare?: number;
  readonly seed: string | number;
  /** Prefix of every order id, so runs never share keys. */
  readonly runId: string;
  /** The ledger's operation (the effect key's last part). */
  readonly operation: string;
}

const TENANTS = ["acme", "globex", "initech", "umbrella", "hooli"] as const;
const CURRENCIES = ["EUR", "USD", "GBP"] as const;
/** Late duplicates and conflicts pick an original among the last this-many unique messages. */
const LOOKBACK = 2000;

interface Order {
  tenantId: string;
  orderId: string;
  amount: number;
  currency: string;
}

function valid(kind: LoadKind, order: Order, operation: string): LoadMessage {
  return { kind, body: JSON.stringify(order), effectKey: effectKey(businessKeyText([order.tenantId, order.orderId]), operation), fingerprint: `${order.amount}|${order.currency}` };
}

/** How many of each kind a stream of `messages` holds (rounded; uniques take the remainder). */
export function streamMix(options: StreamOptions): Record<LoadKind, number> {
  const n = options.messages;
  const duplicates = Math.round(n * options.duplicateRatio);
  const concurrent = Math.round(duplicates * (options.concurrentShare ?? 0.5));
  const invalid = Math.round(n * (options.invalidRatio ?? 0));
  const conflicts = Math.round(n * (options.conflictRatio ?? 0));
  const rejected = Math.round(n * (options.rejectedRatio ?? 0));
  const invalidJson = Math.ceil(invalid / 2);
  const unique = n - duplicates - invalid - conflicts - rejected;
  return {
    [LoadKind.Unique]: unique,
    [LoadKind.ConcurrentDuplicate]: concurrent,
    [LoadKind.LateDuplicate]: duplicates - concurrent,
    [LoadKind.Conflict]: conflicts,
    [LoadKind.InvalidJson]: invalidJson,
    [LoadKind.MissingField]: invalid - invalidJson,
    [LoadKind.Rejected]: rejected,
  };
}

/**
 * A reproducible payments stream: the kinds are shuffled with the seed, each duplicate or conflict refers to an
 * earlier unique order (a concurrent duplicate to the one just sent), so every message has a known fate.
 * Throws when the mix leaves no room for the unique orders the others need.
 */
export function generateStream(options: StreamOptions): LoadMessage[] {
  const mix = streamMix(options);
  if (mix.unique < 1 || (mix.unique < 2 && options.messages > 1)) {
    throw new RangeError(`the stream has ${mix.unique} unique orders: lower the duplicate/invalid/conflict ratios or send more messages`);
  }
  const rng = createRng(`${options.seed}:stream`);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rng.next() * items.length)];
  // The first message is always unique, so every duplicate and conflict has an original before it.
  const kinds: LoadKind[] = [];
  for (const [kind, count] of Object.entries(mix) as [LoadKind, number][]) for (let i = 0; i < count - (kind === LoadKind.Unique ? 1 : 0); i++) kinds.push(kind);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  kinds.unshift(LoadKind.Unique);

  const out: LoadMessage[] = [];
  const uniques: Order[] = [];
  let seq = 0;
  const newOrder = (amount?: number): Order => ({
    tenantId: pick(TENANTS),
    orderId: `${options.runId}-${String(++seq).padStart(6, "0")}`,
    amount: amount ?? 100 + Math.floor(rng.next() * 99_900),
    currency: pick(CURRENCIES),
  });
  const earlier = (): Order => uniques[uniques.length - 1 - Math.floor(rng.next() * Math.min(uniques.length, LOOKBACK))];
  for (const kind of kinds) {
    switch (kind) {
      case LoadKind.Unique: {
        const order = newOrder();
        uniques.push(order);
        out.push(valid(kind, order, options.operation));
        break;
      }
      case LoadKind.ConcurrentDuplicate:
        out.push(valid(kind, uniques[uniques.length - 1], options.operation));
        break;
      case LoadKind.LateDuplicate:
        out.push(valid(kind, earlier(), options.operation));
        break;
      case LoadKind.Conflict: {
        const original = earlier();
        out.push(valid(kind, { ...original, amount: original.amount + 1 + Math.floor(rng.next() * 100) }, options.operation));
        break;
      }
      case LoadKind.Rejected:
        // Well-formed, so it reaches the function, whose downstream refuses the currency for good.
        out.push(valid(kind, { ...newOrder(), currency: REFUSED_CURRENCY }, options.operation));
        break;
      case LoadKind.InvalidJson:
        out.push({ kind, body: `{"tenantId":"acme","orderId":"${options.runId}-bad-${++seq}","amount":12` });
        break;
      case LoadKind.MissingField:
        out.push({ kind, body: JSON.stringify({ tenantId: pick(TENANTS), amount: 500, currency: "EUR", note: `${options.runId}-${++seq}` }) });
        break;
    }
  }
  return out;
}
