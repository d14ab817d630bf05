/**
 * FIFO mode's facts of a run (scenario/shape.ts, `Observation.fifo`): every copy that was in the source queue (sent by the
 * producer, redriven by an operator, moved back by a native move) with its group and arrival, the charges and
 * settlements in the order they happened (world/world.ts), and each send SQS deduplicated with the sent message it repeated.
 */
import type { FifoCopyFact } from "./records";
import type { Observation } from "../scenario/shape";
import type { World } from "../world/shape";

export function fifoFacts(world: World, sent: readonly string[], maxReceiveCount: number): NonNullable<Observation["fifo"]> {
  const { sqs } = world;
  const copies: FifoCopyFact[] = [];
  for (const e of sqs.events) {
    if (e.queue !== world.queues.queueUrl || (e.type !== "sent" && e.type !== "moved")) continue;
    const stored = sqs.ever(e.id);
    if (stored?.groupId === undefined || stored.arrival === undefined) continue;
    copies.push({ id: e.id, message: world.roots.get(e.id), group: stored.groupId, arrival: stored.arrival });
  }
  const indexOf = new Map(sent.map((id, i) => [id, i]));
  const deduplicated = sqs.events.flatMap((e) => (e.type === "deduplicated" && indexOf.has(e.id) ? [{ message: indexOf.get(e.id) as number, of: world.roots.get(e.of) }] : []));
  return { copies, order: world.order, deduplicated, maxReceiveCount };
}
