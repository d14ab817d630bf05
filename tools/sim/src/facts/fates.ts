/**
 * What became of a run's messages, read from the simulation's own records: each sent message's final fate, and which
 * sent message a DLQ message descends from.
 */
import { Fate } from "../scenario/shape";
import { SIM_NAMES } from "../settings";
import type { World } from "../world/shape";

/**
 * Which sent message a DLQ message descends from and the reason the pipeline gave it, from the simulation's own
 * records: a quarantine copy is the state machine's (its SenderId; its attributes are the machine's own), anything
 * else is a copy the queue's redrive policy moved (its id kept), whatever attributes its producer gave it.
 */
export function provenance(world: World, dlqMessageId: string): { root?: number; givenReason: string } {
  const stored = world.sqs.ever(dlqMessageId);
  if (stored?.senderId !== SIM_NAMES.senders.stateMachine) return { root: world.roots.get(dlqMessageId), givenReason: "retries-exhausted" };
  const original = stored.attributes?.originalMessageId?.StringValue;
  return { root: original === undefined ? undefined : world.roots.get(original), givenReason: stored.attributes?.reason?.StringValue ?? "(none)" };
}

/** The final fate of each sent message: where its latest copy ended. */
export function fates(world: World, sent: string[]): Fate[] {
  const { sqs } = world;
  const source = new Set(sqs.messages(world.queues.queueUrl).map((m) => m.id));
  const dlq = sqs.messages(world.queues.dlqUrl);
  const deduplicated = new Set(sqs.events.flatMap((e) => (e.type === "deduplicated" ? [e.id] : [])));
  const expired = new Set(sqs.events.filter((e) => e.type === "expired").map((e) => e.id));
  const purged = new Set(sqs.events.filter((e) => e.type === "purged").map((e) => e.id));
  // Quarantined copies that aged out of the DLQ count for the message they came from (only the state machine's
  // copies name it: a producer's attributes name nothing).
  const byMachine = (m: { senderId: string } | undefined): boolean => m?.senderId === SIM_NAMES.senders.stateMachine;
  for (const e of sqs.events) {
    const copy = e.type === "expired" || e.type === "purged" ? sqs.ever(e.id) : undefined;
    const original = byMachine(copy) ? copy?.attributes?.originalMessageId?.StringValue : undefined;
    if (original) (e.type === "purged" ? purged : expired).add(original);
  }
  const latest = new Map<number, string>();
  for (const [id, root] of world.roots) latest.set(root, id);
  return sent.map((firstId, index) => {
    if (firstId === "") return Fate.RefusedAtSend;
    if (deduplicated.has(firstId)) return Fate.Deduplicated;
    const id = latest.get(index) ?? firstId;
    if (source.has(id)) return Fate.Pending;
    if (dlq.some((m) => m.id === id)) return Fate.RetriesExhausted;
    const quarantined = dlq.find((m) => byMachine(m) && m.attributes?.originalMessageId?.StringValue === id);
    // FIFO mode's quarantine on the last receive says retries-exhausted itself: the fate SQS's move would give.
    const reason = quarantined?.attributes?.reason?.StringValue;
    if (quarantined) return reason === Fate.RetriesExhausted ? Fate.RetriesExhausted : (`quarantined:${reason}` as Fate);
    if (purged.has(id)) return Fate.Purged;
    if (expired.has(id)) return Fate.Expired;
    return world.audit.filtered.has(id) ? Fate.Filtered : Fate.Acked;
  });
}
