/**
 * Where and how each expired message aged out, from the simulated queues' records: the model judges an expiry by
 * it (oracle/retention.ts). A quarantine's copy counts for the message it names only when the state machine sent it.
 */
import type { ExpiryFact } from "./records";
import { SIM_NAMES } from "../settings";
import type { World } from "../world/shape";

export function expiryFacts(world: World, sent: readonly string[]): ExpiryFact[] {
  const { sqs } = world;
  const latest = new Map<number, string>();
  for (const [id, root] of world.roots) latest.set(root, id);
  const out: ExpiryFact[] = [];
  sent.forEach((firstId, message) => {
    if (firstId === "") return;
    const id = latest.get(message) ?? firstId;
    for (const e of sqs.events) {
      if (e.type !== "expired") continue;
      const copy = sqs.ever(e.id);
      const quarantined = e.id !== id && copy?.senderId === SIM_NAMES.senders.stateMachine && copy.attributes?.originalMessageId?.StringValue === id;
      if (e.id !== id && !quarantined) continue;
      const queue = e.queue === world.queues.queueUrl ? "source" : "dlq";
      out.push({ message, queue, moved: queue === "dlq" && !quarantined, at: e.at, waitedMs: e.waitedMs, ...(e.deadLetteredAt === undefined ? {} : { deadLetteredAt: e.deadLetteredAt }) });
    }
  });
  return out;
}
