/**
 * The guarantee table's ordering row (docs/guarantees.md, "Order within a message group (FIFO)"), as the model reads it in FIFO mode:
 *
 * - **Order**: within a message group, a message is applied only after every earlier message of its group (earlier in
 *   the source queue: a redriven copy joins its group at the end) has been applied, acknowledged as a duplicate, or
 *   set aside (quarantined, or moved to the DLQ by SQS; dropped by the pipe's filter, purged or expired, which other
 *   rules judge). Read from the run's facts in the order they happened (facts/records.ts: `OrderFact`), never from times: two
 *   steps at one virtual instant still have an order.
 * - **The last receive**: a record to retry on its last receive is quarantined (`retries-exhausted`), so no record of
 *   its group waits untried behind it until SQS moves them all: a delivery on the last receive is handed back only
 *   when its quarantine was refused, its execution ran out of time, the host stalled, or it was held behind such a one.
 * - **SQS's deduplication**: a send SQS accepted and never delivered (`deduplicated`) repeats the deduplication id of
 *   a send it accepted less than 5 minutes before (within the group, when the scope is the group; content-based: the
 *   SHA-256 of the body) — SQS's documented behaviour, which no message of the pipeline's own may meet.
 */
import { FIFO_DEDUPLICATION_WINDOW_SECONDS } from "@effectively-once/contract";
import { contentDeduplicationId, deduplicationKey } from "@effectively-once/local-cloud/sqs-rules";
import { fifoSendIds } from "../scenario/fifo-sends";
import { Fate, type Observation, type Scenario } from "../scenario/shape";
import type { Violation } from "./verdicts";

/** The FIFO settings the model reads (the stack's props). */
export interface FifoModel {
  readonly contentBasedDeduplication: boolean;
  readonly scope: "queue" | "messageGroup";
}

type Delivery = Observation["deliveries"][number];

export function orderViolations(obs: Observation): Violation[] {
  const fifo = obs.fifo;
  if (!fifo) return [];
  const copies = new Map(fifo.copies.map((c) => [c.id, c]));
  const settledAt = new Map<string, number>();
  for (const f of fifo.order) if (f.kind === "settled" && !settledAt.has(f.copy)) settledAt.set(f.copy, f.seq);
  const out: Violation[] = [];
  for (const charge of fifo.order) {
    if (charge.kind !== "charge") continue;
    const applied = copies.get(charge.copy);
    if (!applied) continue;
    const earlier = fifo.copies.filter((e) => e.group === applied.group && e.arrival < applied.arrival && (settledAt.get(e.id) ?? Infinity) > charge.seq);
    for (const e of earlier) {
      out.push({
        message: applied.message,
        what: `applied before message #${e.message ?? "?"}, earlier in its message group ${JSON.stringify(applied.group)}, was applied, acknowledged or set aside (${settledAt.has(e.id) ? "it was settled only later" : "it never was"}): FIFO order broken`,
      });
    }
  }
  return out;
}

/**
 * Whether a delivery on the last receive may be handed back (see the file comment): `excused` says whether one of the
 * usual causes outside it (a refused quarantine, a timeout, a stall) holds.
 */
export function lastReceiveViolations(obs: Observation, stalled: boolean, refusedQuarantine: (d: Delivery) => boolean): Violation[] {
  const fifo = obs.fifo;
  if (!fifo || stalled) return [];
  const byCopyAndTime = new Map(obs.deliveries.map((d) => [`${d.copy}@${d.startedAt}`, d]));
  const excused = (d: Delivery): boolean => {
    if (d.timedOut || refusedQuarantine(d)) return true;
    if (d.heldBehind === undefined) return false;
    const ahead = byCopyAndTime.get(`${d.heldBehind}@${d.startedAt}`);
    return ahead !== undefined && (ahead.receive < fifo.maxReceiveCount || excused(ahead));
  };
  return obs.deliveries
    .filter((d) => d.retried && d.receive >= fifo.maxReceiveCount && !excused(d))
    .map((d) => ({
      message: d.message,
      what: `handed back on its last receive (${d.receive} of ${fifo.maxReceiveCount}) instead of being quarantined as retries-exhausted: SQS would move it, and every record of its group held behind it, to the DLQ untried`,
    }));
}

/** The sends the model lets SQS deduplicate: each repeats a scoped id accepted less than 5 minutes before it. */
export function deduplicationAllowed(scenario: Scenario, obs: Observation, model: FifoModel): Set<number> {
  const ids = fifoSendIds(scenario, model.contentBasedDeduplication);
  const bodies = scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
  const accepted = new Map<string, number>();
  const allowed = new Set<number>();
  ids.forEach((send, i) => {
    const seen = obs.messages[i];
    if (!seen || seen.fate === Fate.RefusedAtSend) return;
    const id = send.dedup ?? (model.contentBasedDeduplication ? contentDeduplicationId(bodies[i]) : undefined);
    if (id === undefined) return;
    const scoped = deduplicationKey(model.scope, send.group, id);
    const earlier = accepted.get(scoped);
    if (earlier !== undefined && seen.sentAt - earlier < FIFO_DEDUPLICATION_WINDOW_SECONDS * 1000) allowed.add(i);
    else accepted.set(scoped, seen.sentAt);
  });
  return allowed;
}
