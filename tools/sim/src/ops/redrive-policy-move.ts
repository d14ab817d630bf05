/**
 * SQS's second move path as an operator uses it (docs/guarantees.md, "paths back from the DLQ"), called through the
 * SDK's commands as the console sends them:
 *
 * - `direct`: the DLQ gets a redrive policy naming the source queue (maxReceiveCount 1), the operator polls the DLQ
 *   until every copy moved on (each keeps its id, attributes and, in a standard queue, its original enqueue time), then
 *   removes the policy;
 * - `temporary`: the same into a temporary queue, then a message-move task from it to the source queue (each copy a
 *   new message with a new enqueue time, its attributes kept), started while the temporary queue is still the DLQ's DLQ.
 *
 * Refused when the source queue's (or the temporary queue's) RedriveAllowPolicy refuses to be named (InvalidParameterValue),
 * or the move task by the temporary queue's policy (it has none). Each copy that reaches the source queue is mapped to
 * the sent message it descends from.
 */
import { ReceiveMessageCommand, SetQueueAttributesCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { isFifoQueue } from "@effectively-once/contract";
import { provenance } from "../facts/fates";
import { SIM_NAMES } from "../settings";
import type { World } from "../world/shape";

/** How many polls the operator makes at most: each moves what it finds read once before (two per quarantined copy). */
const MAX_POLLS = 50;

export async function redrivePolicyMove(world: World, via: "direct" | "temporary"): Promise<void> {
  const { sqs, clock, log, queues } = world;
  const client = sqs.clientAs(SIM_NAMES.senders.operator);
  const before = sqs.events.length;
  const rootOf = (id: string) => provenance(world, id).root ?? world.roots.get(id);
  const dlqRoots = new Map(sqs.messages(queues.dlqUrl).map((m) => [m.id, rootOf(m.id)]));
  const target = via === "direct" ? { url: queues.queueUrl, arn: queues.queueArn } : temporaryQueue(world);
  let refused = false;
  try {
    await client.send(new SetQueueAttributesCommand({ QueueUrl: queues.dlqUrl, Attributes: { RedrivePolicy: JSON.stringify({ deadLetterTargetArn: target.arn, maxReceiveCount: 1 }) } }));
  } catch (error) {
    refused = (error as Error).name === "InvalidParameterValue";
    if (!refused) throw error;
  }
  if (!refused) {
    for (let i = 0; i < MAX_POLLS && sqs.messages(queues.dlqUrl).some((m) => m.invisibleUntil <= clock.now()); i += 1) {
      await client.send(new ReceiveMessageCommand({ QueueUrl: queues.dlqUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 0 }));
    }
    // The move task first: its source must be some queue's DLQ when it starts (the DLQ's policy makes the temporary one so).
    if (via === "temporary") await client.send(new StartMessageMoveTaskCommand({ SourceArn: target.arn, DestinationArn: queues.queueArn }));
    await client.send(new SetQueueAttributesCommand({ QueueUrl: queues.dlqUrl, Attributes: { RedrivePolicy: "" } }));
  }
  const messages: number[] = [];
  for (const e of sqs.events.slice(before)) {
    // Into the source queue: by the DLQ's redrive policy (id kept) or by the move task (a new id, `from` the DLQ copy's).
    if (e.queue !== queues.queueUrl || (e.type !== "dead-lettered" && e.type !== "moved")) continue;
    const root = dlqRoots.get(e.type === "moved" ? e.from : e.id);
    if (root === undefined) continue;
    world.roots.set(e.id, root);
    messages.push(root);
  }
  world.audit.nativeActions.push({ at: clock.now(), action: "redrive-policy", refused, messages });
  log(`redrive-policy ${via} ${refused ? "refused (RedriveAllowPolicy)" : `took ${messages.map((m) => `#${m}`).join(",") || "nothing"}`}`);
}

/** The operator's temporary queue, of the DLQ's type, made once per run. */
function temporaryQueue(world: World): { url: string; arn: string } {
  const fifo = isFifoQueue(world.queues.dlqUrl);
  const name = `sim-temporary${fifo ? ".fifo" : ""}`;
  const queue = { url: `http://sqs.sim/000000000000/${name}`, arn: `arn:aws:sqs:us-east-1:000000000000:${name}` };
  try {
    world.sqs.messages(queue.url);
  } catch {
    world.sqs.addQueue({ ...queue, visibilityTimeoutSeconds: 30, retentionSeconds: 1_209_600, maxMessageBytes: 262_144, ...(fifo ? { fifo: { contentBasedDeduplication: false, deduplicationScope: "queue" as const } } : {}) });
  }
  return queue;
}
