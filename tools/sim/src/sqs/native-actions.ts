/**
 * SQS's own operator actions in the simulation's SQS (sqs/service.ts): the DLQ's message-move task (the console's "Start DLQ
 * redrive", `StartMessageMoveTask`) and `PurgeQueue`. Each is refused with AccessDenied when the queue's policy, as the
 * stack's props render it, holds an explicit Deny of the action to every principal (AWS: an explicit deny in a
 * resource-based policy overrides every allow). The policy is read with the contract's reader, the one `pipeline-ops`
 * and `npm run plan:review` use (packages/contract/src/queue-guard.ts, held to IAM's grammar by packages/contract/test/queue-guard.test.ts).
 */
import { queueGuardOf } from "@effectively-once/contract";
import type { VirtualClock } from "../clock/virtual-clock";
import { SqsError, type SimQueueConfig, type SqsEvent, type StoredMessage } from "./model";

/** What the actions reach of the simulated SQS. */
export interface NativeActionHost {
  readonly clock: VirtualClock;
  readonly queues: Map<string, { config: SimQueueConfig; messages: StoredMessage[] }>;
  record(event: SqsEvent): void;
  store(message: StoredMessage): void;
  nextId(): string;
  /** The next arrival number (a FIFO queue delivers a group in arrival order). */
  nextArrival(): number;
  /** Wakes long polls: messages arrived. */
  wake(): void;
}

const denial = (principal: string, action: string, arn: string, why: string): SqsError =>
  new SqsError("AccessDenied", `User: ${principal} is not authorized to perform: ${action} on resource: ${arn} with an explicit deny in a resource-based policy (${why})`);

/**
 * A message-move task, done at once: to `destinationArn`, or without one back to the messages' source queue. Its source
 * may be any queue that is some queue's DLQ (AWS: StartMessageMoveTask "is currently limited to supporting message
 * redrive from queues that are configured as dead-letter queues (DLQs) of other Amazon SQS queues"), a temporary queue
 * the DLQ's own redrive policy names too. Every visible message becomes a new message there, with a new id, a new
 * enqueue time (SentTimestamp: its retention starts again) and a receive count of 0 (AWS: "All redriven messages are
 * considered new messages", with a new messageID and enqueueTime). AWS does not say what becomes of message attributes
 * or SenderId: here both are kept, as in the local SQS (the SQS contract, tools/sim/test/sqs/conformance, holds the two to
 * one rule; `npm run verify` asks AWS).
 */
export function startMoveTask(host: NativeActionHost, sourceArn: string, principal: string, destinationArn?: string): { TaskHandle: string } {
  const source = [...host.queues.entries()].find(([, q]) => q.config.arn === sourceArn);
  if (!source) throw new SqsError("ResourceNotFoundException", `The resource that you specified for the SourceArn parameter doesn't exist: ${sourceArn}`);
  const [dlqUrl, dlq] = source;
  const guard = queueGuardOf(dlq.config.policy, sourceArn).nativeMoves;
  if (guard.refused) throw denial(principal, "sqs:StartMessageMoveTask", sourceArn, guard.why);
  const origin = [...host.queues.entries()].find(([, q]) => q.config.redrive?.deadLetterUrl === dlqUrl);
  if (!origin) throw new SqsError("InvalidParameterValue", `Source queue must be configured as a Dead Letter Queue: ${sourceArn}`);
  const destination = destinationArn === undefined ? origin : [...host.queues.entries()].find(([, q]) => q.config.arn === destinationArn);
  if (!destination) throw new SqsError("ResourceNotFoundException", `The resource that you specified for the DestinationArn parameter doesn't exist: ${destinationArn}`);
  const now = host.clock.now();
  for (const m of dlq.messages.filter((x) => x.invisibleUntil <= now)) {
    dlq.messages.splice(dlq.messages.indexOf(m), 1);
    // A FIFO copy keeps its group (AWS does not say; the local SQS does the same) and arrives at its end.
    const fifo = m.groupId === undefined ? {} : { groupId: m.groupId, deduplicationId: m.deduplicationId };
    const copy: StoredMessage = { id: host.nextId(), body: m.body, attributes: m.attributes, senderId: m.senderId, sentAt: now, receiveCount: 0, invisibleUntil: 0, arrival: host.nextArrival(), ...fifo };
    destination[1].messages.push(copy);
    host.store(copy);
    host.record({ type: "moved", queue: destination[0], id: copy.id, from: m.id });
  }
  host.wake();
  return { TaskHandle: `sim-move-${now}` };
}

/** PurgeQueue: every message of the queue is deleted, in flight or not. */
export function purgeQueue(host: NativeActionHost, url: string, principal: string): void {
  const q = host.queues.get(url);
  if (!q) throw new SqsError("QueueDoesNotExist", `The specified queue does not exist: ${url}`);
  const guard = queueGuardOf(q.config.policy, q.config.arn).purge;
  if (guard.refused) throw denial(principal, "sqs:PurgeQueue", q.config.arn, guard.why);
  for (const m of q.messages) host.record({ type: "purged", queue: url, id: m.id });
  q.messages.length = 0;
}
