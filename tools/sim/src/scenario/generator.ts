/**
 * Hostile streams for the simulation (fast-check arbitraries). Key parts with separators, quotes and escapes,
 * unicode (NFC/NFD, emoji, control characters, lone surrogates), numbers at precision edges and in several
 * spellings, type variants, missing and empty fields, field orders, sizes at the limits (keys near 1,024 and
 * 2,048 bytes, bodies near 256 KiB, deep nesting), exact duplicates, resends in another field order, conflicts,
 * operator actions (the CLI's, and SQS's own: a native DLQ move, a purge), clock jumps and deploys that rename the
 * function at any point, and per-message faults. Small pools make collisions likely. Special
 * texts (scenario/hostile-text.ts) in every text position: whole bodies, key parts, payload values, extra field names and
 * values; and the producer's message attributes (scenario/producer-attributes.ts), forged ones among them.
 */
import fc from "fast-check";
import { rawBody, specialFieldName, specialFieldValue, specialText } from "./hostile-text";
import { producerAttributes } from "./producer-attributes";
import { FaultKind, TRANSIENT_FAULTS, type Fault, type MessageAttribute, type Op, type Scenario } from "./shape";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A JSON value as text, so spellings JSON.parse would merge (10, 10.0, 1e1) stay distinct on the wire. */
export type Raw = { readonly raw: string };
export const raw = (text: string): Raw => ({ raw: text });
export const str = (s: string): Raw => raw(JSON.stringify(s));
/** The same string with every non-ASCII character as a \u escape (a different body, the same value). */
export const escaped = (s: string): Raw =>
  raw(JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));

const PART_TEXTS = [
  "a", "b", "c", "t1", "o-42", "a#b", "b#c", "#", "a\\b", "x'y", 'q"z', " a", "a ", "café", "cafe\u0301", "😀", "\u0001ctl",
  "\ud800", "42", "1e1", "x".repeat(1010), "x".repeat(1030), "é".repeat(1030), "x".repeat(2100),
];
/** Parts over a tiny alphabet that includes separator-like characters: two tuples often join to the same text. */
const tinyPart = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom("a", "#"), { minLength: 1, maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom("a", "b", "#", "|"), { minLength: 1, maxLength: 3 }) },
).map((cs) => cs.join(""));
const part = fc.oneof(
  { weight: 8, arbitrary: tinyPart.map(str) },
  { weight: 6, arbitrary: fc.constantFrom(...PART_TEXTS.slice(0, 8)).map(str) },
  { weight: 4, arbitrary: fc.constantFrom(...PART_TEXTS).map(str) },
  { weight: 2, arbitrary: fc.constantFrom(...PART_TEXTS).map(escaped) },
  { weight: 2, arbitrary: fc.constantFrom("42", "4242", "0", "null", "true", '""', "[]", '{"a":1}').map(raw) },
  { weight: 3, arbitrary: specialText.map(str) },
  { weight: 1, arbitrary: specialText.map(escaped) },
);

const AMOUNTS = [
  "10", "10.0", "1e1", "100E-1", '"10"', "1000000000000001", "1000000000000002", "9007199254740991", "9007199254740993",
  "123456789012345678", "0", "-5", "1.5", "0.1", "1e400", "null", "2",
];
const amount = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("10", "20", "10.0", "1e1").map(raw) },
  { weight: 4, arbitrary: fc.constantFrom(...AMOUNTS).map(raw) },
  { weight: 1, arbitrary: specialText.map(str) },
);
const currency = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("EUR", "USD").map(str) },
  { weight: 2, arbitrary: fc.constantFrom("eur", "EURO", "", "E\u0301UR").map(str) },
  { weight: 1, arbitrary: fc.constantFrom("978", "null").map(raw) },
  { weight: 1, arbitrary: specialText.map(str) },
);
/** The padding fields, serialized once: a 256 KiB string's JSON text per draw cost a third of a second per 1,500 scenarios. */
const PADS = [1_000, 200_000, 261_990, 262_100].map((n) => ["pad", str("p".repeat(n))] as const);
export const extra = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom("note 😀", "\u2028", "naïve").map((s) => ["note", str(s)] as const) },
  { weight: 1, arbitrary: fc.constantFrom(2, 8).map((d) => ["nested", raw("[".repeat(d) + "]".repeat(d))] as const) },
  { weight: 1, arbitrary: fc.constant(["deep", raw("[".repeat(20_000) + "]".repeat(20_000))] as const) },
  { weight: 1, arbitrary: fc.constantFrom(...PADS) },
  { weight: 1, arbitrary: specialText.map((s) => ["note", str(s)] as const) },
  { weight: 2, arbitrary: fc.tuple(specialFieldName, specialFieldValue.map(raw)) },
);

/** One message's fields (absent ones left out), before serialization; or a whole body that is no JSON object. */
export interface MessageSpec {
  readonly fields: readonly (readonly [string, Raw])[];
  readonly body?: string;
  /**
   * A last field `pad` whose string fills the body to this many UTF-8 bytes with a unit of JSON string text (a
   * Cyrillic letter, an emoji, an escaped quote, …), topped up with `x`: sizes near what SQS and the batch take.
   */
  readonly pad?: { readonly unit: string; readonly bytes: number };
}

/** The body's text with its `pad` field filling it to the spec's byte size (none when the fields alone are larger). */
function padded(text: string, pad: NonNullable<MessageSpec["pad"]>): string {
  const open = `${text.slice(0, -1)}${text.length > 2 ? "," : ""}"pad":"`;
  const room = pad.bytes - Buffer.byteLength(open) - 2;
  if (room <= 0) return `${open}"}`;
  const fill = pad.unit.repeat(Math.floor(room / Buffer.byteLength(pad.unit)));
  return `${open}${fill}${"x".repeat(room - Buffer.byteLength(fill))}"}`;
}

/** A well-formed message over tiny parts: most of a stream, so keys meet (duplicates, conflicts, collisions). */
const plainSpec: fc.Arbitrary<MessageSpec> = fc
  .record({
    tenantId: tinyPart,
    orderId: tinyPart,
    amount: fc.constantFrom("10", "20", "10.0", "1e1", "1000000000000001", "1000000000000002"),
    // XXX: the example downstream refuses it for good (quarantined as rejected).
    currency: fc.oneof({ weight: 12, arbitrary: fc.constantFrom("EUR", "USD") }, { weight: 1, arbitrary: fc.constant("XXX") }),
  })
  .map((m) => ({ fields: [["tenantId", str(m.tenantId)], ["orderId", str(m.orderId)], ["amount", raw(m.amount)], ["currency", str(m.currency)]] as const }));

const hostileSpec: fc.Arbitrary<MessageSpec> = fc
  .record({
    tenantId: fc.option(part, { freq: 12, nil: undefined }),
    orderId: fc.option(part, { freq: 12, nil: undefined }),
    amount: fc.option(amount, { freq: 12, nil: undefined }),
    currency: fc.option(currency, { freq: 12, nil: undefined }),
    extra,
  })
  .map(({ extra: more, ...main }) => ({
    fields: [...Object.entries(main).filter((e): e is [string, Raw] => e[1] !== undefined), ...(more ? [more as readonly [string, Raw]] : [])],
  }));

const bodySpec: fc.Arbitrary<MessageSpec> = rawBody.map((body) => ({ fields: [], body }));

const spec = fc.oneof({ weight: 3, arbitrary: plainSpec }, { weight: 2, arbitrary: hostileSpec }, { weight: 1, arbitrary: bodySpec });

/** Each spec's bodies by order and amount: a resend gets the text already built (a 256 KiB body is copied once). */
const built = new WeakMap<MessageSpec, Map<string, string>>();
/** Body text of a spec with its fields in the order given by `order` (a permutation index). */
function serialize(s: MessageSpec, order: number, amountOverride?: Raw): string {
  if (s.body !== undefined) return s.body;
  const key = amountOverride ? `${order} ${amountOverride.raw}` : `${order}`;
  const bodies = built.get(s) ?? new Map<string, string>();
  built.set(s, bodies);
  const body = bodies.get(key) ?? build(s, order, amountOverride);
  bodies.set(key, body);
  return body;
}

function build(s: MessageSpec, order: number, amountOverride?: Raw): string {
  const fields = s.fields.map(([k, v]) => [k, k === "amount" && amountOverride ? amountOverride : v] as const);
  let x = order;
  for (let i = fields.length - 1; i > 0; i--) {
    const j = x % (i + 1);
    x = Math.floor(x / (i + 1));
    [fields[i], fields[j]] = [fields[j], fields[i]];
  }
  const text = `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${v.raw}`).join(",")}}`;
  return s.pad ? padded(text, s.pad) : text;
}

type OpSpec =
  | { readonly kind: "send"; readonly spec: number; readonly order: number; readonly amount?: Raw; readonly attributes?: readonly MessageAttribute[] }
  | { readonly kind: "advance"; readonly ms: number }
  | { readonly kind: "stall"; readonly ms: number }
  | { readonly kind: "jump"; readonly ms: number }
  | { readonly kind: "redrive" }
  | { readonly kind: "release"; readonly message: number }
  | { readonly kind: "outage"; readonly ms: number }
  | { readonly kind: "native-move" }
  | { readonly kind: "purge"; readonly queue: "source" | "dlq" }
  | { readonly kind: "redrive-policy"; readonly via: "direct" | "temporary" }
  | { readonly kind: "rename" }
  | { readonly kind: "rollback" };

const opSpecWith = (attributes: fc.Arbitrary<readonly MessageAttribute[] | undefined>): fc.Arbitrary<OpSpec> => fc.oneof(
  // A new message, an exact resend (same spec, same order), a resend in another order, a conflict (other amount).
  // Each with the producer's attributes, if any.
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("send" as const), spec: fc.nat(11), order: fc.constant(0), attributes }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("send" as const), spec: fc.nat(11), order: fc.nat(23), attributes }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("send" as const), spec: fc.nat(11), order: fc.constant(0), amount, attributes }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("advance" as const), ms: fc.constantFrom(100, 1_000, 30_000, 400_000) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("stall" as const), ms: fc.constantFrom(30_000, 120_000, 600_000, HOUR) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("jump" as const), ms: fc.constantFrom(HOUR, DAY, 3 * DAY, 8 * DAY, 15 * DAY) }) },
  { weight: 2, arbitrary: fc.constant({ kind: "redrive" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release" as const), message: fc.nat(11) }) },
  // The pipe down for hours or days: a copy (a redriven one too) may be delivered long after it was sent.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("outage" as const), ms: fc.constantFrom(12 * HOUR, DAY, 3 * DAY) }) },
  // SQS's own actions an operator reaches for: the console's "Start DLQ redrive" and "Purge".
  { weight: 1, arbitrary: fc.constant({ kind: "native-move" as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("purge" as const), queue: fc.constantFrom("source" as const, "dlq" as const) }) },
  // SQS's other move path: the DLQ given a redrive policy, to the source queue or to a temporary queue then moved on.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("redrive-policy" as const), via: fc.constantFrom("direct" as const, "temporary" as const) }) },
  // A deploy that renames the function (a refactor), its tables kept: nothing remembered may change with the name.
  { weight: 1, arbitrary: fc.constant({ kind: "rename" as const }) },
  // A rollback to the previous release: its function honours only its own records, the ledger alone remembers.
  { weight: 1, arbitrary: fc.constant({ kind: "rollback" as const }) },
);
const opSpec = opSpecWith(producerAttributes);

/**
 * Half of the faults transient (each of them about three times as often as each hard one): the model holds them to
 * the strictest promise, no receive lost.
 */
const faultKind: fc.Arbitrary<FaultKind> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...TRANSIENT_FAULTS) },
  { weight: 1, arbitrary: fc.constantFrom(...Object.values(FaultKind).filter((k) => !TRANSIENT_FAULTS.includes(k))) },
);

const fault: fc.Arbitrary<Fault> = fc.record({
  message: fc.nat(11),
  kind: faultKind,
  // Some receives, or every one (a poison message: it can only leave through the DLQ).
  receives: fc.oneof({ weight: 1, arbitrary: fc.subarray([1, 2, 3, 4, 5], { minLength: 1 }) }, { weight: 1, arbitrary: fc.constant([1, 2, 3, 4, 5]) }),
});

/** Jumps add up to at most a month: past the ledger's and the DLQ's retention (both 14 days by default). */
const MAX_TOTAL_JUMP_MS = 30 * DAY;

function toOps(specs: readonly MessageSpec[], ops: readonly OpSpec[]): Op[] {
  let jumped = 0;
  const out: Op[] = [];
  for (const o of ops) {
    if (o.kind === "send") {
      const body = serialize(specs[o.spec % specs.length], o.order, o.amount);
      out.push(o.attributes ? { op: "send", body, attributes: o.attributes } : { op: "send", body });
    }
    else if (o.kind === "jump") {
      if (jumped + o.ms > MAX_TOTAL_JUMP_MS) continue;
      jumped += o.ms;
      out.push({ op: "jump", ms: o.ms });
    } else if (o.kind === "stall") out.push({ op: "stall", ms: o.ms });
    else if (o.kind === "advance") out.push({ op: "advance", ms: o.ms });
    else if (o.kind === "redrive") out.push({ op: "redrive" });
    else if (o.kind === "outage") out.push({ op: "outage", ms: o.ms });
    else if (o.kind === "native-move") out.push({ op: "native-move" });
    else if (o.kind === "purge") out.push({ op: "purge", queue: o.queue });
    else if (o.kind === "redrive-policy") out.push({ op: "redrive-policy", via: o.via });
    else if (o.kind === "rename") out.push({ op: "rename" });
    else if (o.kind === "rollback") out.push({ op: "rollback" });
    else out.push({ op: "release", message: o.message });
  }
  return out;
}

export interface ScenarioShape {
  /** Operations per scenario (default 20: ~6 messages). */
  readonly maxOps?: number;
  /**
   * Streams of about this many messages instead (1 to twice as many, uniformly): the sends, and about half as many
   * other operations placed between them, with faults in proportion. Replays of a default search stay valid.
   */
  readonly messages?: number;
  /**
   * Faults drawn from these sets only, each set landing whole on one message and its receives (e.g. a crash and a
   * throttled release together): the focused budgets of `npm run sim:mutants`.
   */
  readonly faultSets?: readonly (readonly FaultKind[])[];
  /** Messages of another domain (domain/messages.ts), and the attributes its sends carry (default: the payments mix). */
  readonly specs?: fc.Arbitrary<MessageSpec>;
  readonly attributes?: fc.Arbitrary<readonly MessageAttribute[] | undefined>;
}

/** A fault of the default mix, or one drawn set of kinds on one message. */
function faultsOf(sets: ScenarioShape["faultSets"]): fc.Arbitrary<Fault[]> {
  if (sets === undefined || sets.length === 0) return fault.map((f) => [f]);
  return fc
    .record({ base: fault, set: fc.constantFrom(...sets) })
    .map(({ base, set }) => set.map((kind) => ({ message: base.message, receives: base.receives, kind })));
}

/** A whole scenario: up to ~20 operations over up to 12 distinct messages, with up to 3 faults. */
export function scenarioArbitrary(options: ScenarioShape = {}): fc.Arbitrary<Scenario> {
  if (options.messages !== undefined) return streamArbitrary(options.messages, options.faultSets, options);
  return fc
    .record({
      seed: fc.nat(),
      pollers: fc.integer({ min: 1, max: 3 }),
      specs: fc.array(options.specs ?? spec, { minLength: 1, maxLength: 12, size: "large" }),
      ops: fc.array(options.attributes ? opSpecWith(options.attributes) : opSpec, { minLength: 1, maxLength: options.maxOps ?? 20, size: "large" }),
      faults: fc.array(faultsOf(options.faultSets), { maxLength: 4 }).map((groups) => groups.flat()),
    })
    .map(({ seed, pollers, specs, ops, faults }) => scenarioOf(seed, pollers, faults, toOps(specs, ops)));
}

/** Faults and releases name sent messages: a drawn index past the last send wraps around, so each one bites. */
function scenarioOf(seed: number, pollers: number, faults: readonly Fault[], drawn: Op[]): Scenario {
  const sends = Math.max(1, drawn.filter((o) => o.op === "send").length);
  const ops = drawn.map((o) => (o.op === "release" ? { ...o, message: o.message % sends } : o));
  return { seed, pollers, ops, faults: faults.map((f) => ({ ...f, message: f.message % sends })) };
}

const isSend = (o: OpSpec): boolean => o.kind === "send";

/** `messages` sends on average, the other operations at drawn places between them (see ScenarioShape). */
function streamArbitrary(messages: number, faultSets?: ScenarioShape["faultSets"], domain: Pick<ScenarioShape, "specs" | "attributes"> = {}): fc.Arbitrary<Scenario> {
  const most = 2 * messages;
  const ops = domain.attributes ? opSpecWith(domain.attributes) : opSpec;
  const sendSpec = ops.filter(isSend);
  const otherSpec = ops.filter((o) => !isSend(o));
  const streamFault = faultsOf(faultSets).chain((group) => fc.nat(most - 1).map((message) => group.map((f) => ({ ...f, message }))));
  return fc
    .record({
      seed: fc.nat(),
      pollers: fc.integer({ min: 1, max: 3 }),
      specs: fc.array(domain.specs ?? spec, { minLength: 1, maxLength: 12, size: "large" }),
      sends: fc.array(sendSpec, { minLength: 1, maxLength: most, size: "max" }),
      others: fc.array(fc.tuple(fc.nat(most), otherSpec), { maxLength: messages, size: "max" }),
      faults: fc.array(streamFault, { maxLength: Math.max(3, Math.ceil(messages / 2)), size: "max" }).map((groups) => groups.flat()),
    })
    .map(({ seed, pollers, specs, sends, others, faults }) => {
      const ops: OpSpec[] = [];
      sends.forEach((send, i) => ops.push(...others.filter(([at]) => at === i).map(([, o]) => o), send));
      ops.push(...others.filter(([at]) => at >= sends.length).map(([, o]) => o));
      return scenarioOf(seed, pollers, faults, toOps(specs, ops));
    });
}
