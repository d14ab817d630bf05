/**
 * SQS's own operator actions in the simulation's SQS (sqs/service.ts): the DLQ's message-move task (the console's "Start DLQ
 * redrive", `StartMessageMoveTask`) and `PurgeQueue`. Each is refused with AccessDenied when the queue's policy, as the
 * stack's props render it, holds an explicit Deny of the action to every principal (AWS: an explicit deny in a
 * resource-based policy overrides every allow), evaluated as the local SQS evaluates it: SQS's rule, one copy
 * (`@effectively-once/local-cloud/sqs-rules`, packages/local-cloud/src/sqs/rules/queue-policy.cjs).
 */
import { movedCopy, moveDestinationArn, moveTaskStartProblem, policyDenial } from "@effectively-once/local-cloud/sqs-rules";
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

/** Throws AccessDenied when the queue's policy denies `action` (SQS's action name) to `principal`. */
function checkPolicyAllows(config: SimQueueConfig, action: string, principal: string): void {
  const problem = policyDenial(config.policy, action, config.arn, principal);
  if (problem) throw new SqsError(problem.code, problem.message);
}

/**
 * A message-move task, done at once: to `destinationArn`, or without one back to each message's source queue. Which
 * task may start, where a message goes and what a copy keeps are SQS's rules, one copy for both SQS implementations
 * (`@effectively-once/local-cloud/sqs-rules`, packages/local-cloud/src/sqs/rules/move-tasks.cjs): every visible message
 * becomes a new message there, with a new id, a new enqueue time (its retention starts again) and a receive count of 0;
 * a FIFO copy arrives at its group's end. A copy sent to the DLQ directly (the quarantine's) has no source queue, and
 * AWS's behaviour for it is unrecorded: here it goes to the queue whose redrive policy names the DLQ, where the local
 * SQS fails the task instead (docs/simulation.md).
 */
export function startMoveTask(host: NativeActionHost, sourceArn: string, principal: string, destinationArn?: string): { TaskHandle: string } {
  const byArn = (arn: string | undefined) => [...host.queues.entries()].find(([, q]) => q.config.arn === arn);
  const source = byArn(sourceArn);
  if (source) checkPolicyAllows(source[1].config, "StartMessageMoveTask", principal);
  const origin = source && [...host.queues.entries()].find(([, q]) => q.config.redrive?.deadLetterUrl === source[0]);
  const named = destinationArn === undefined ? undefined : byArn(destinationArn);
  const fifo = (q: { config: SimQueueConfig } | undefined) => q && { fifo: q.config.fifo !== undefined };
  const problem = moveTaskStartProblem({ source: fifo(source?.[1]), sourceIsDeadLetterQueue: origin !== undefined, destinationArn, destination: fifo(named?.[1]), running: false });
  if (problem || !source || !origin) throw new SqsError(problem?.code ?? "InvalidParameterValue", problem?.message ?? sourceArn);
  const [, dlq] = source;
  const now = host.clock.now();
  for (const m of dlq.messages.filter((x) => x.invisibleUntil <= now)) {
    const [destinationUrl, destination] = byArn(moveDestinationArn(destinationArn, m.deadLetterQueueSourceArn)) ?? origin;
    dlq.messages.splice(dlq.messages.indexOf(m), 1);
    const kept = movedCopy({ body: m.body, attributes: m.attributes, senderId: m.senderId, groupId: m.groupId, deduplicationId: m.deduplicationId });
    const group = kept.groupId === undefined ? {} : { groupId: kept.groupId, deduplicationId: kept.deduplicationId };
    const copy: StoredMessage = { id: host.nextId(), body: kept.body, attributes: kept.attributes, senderId: String(kept.senderId), sentAt: now, receiveCount: 0, invisibleUntil: 0, arrival: host.nextArrival(), ...group };
    destination.messages.push(copy);
    host.store(copy);
    host.record({ type: "moved", queue: destinationUrl, id: copy.id, from: m.id });
  }
  host.wake();
  return { TaskHandle: `sim-move-${now}` };
}

/** PurgeQueue: every message of the queue is deleted, in flight or not. */
export function purgeQueue(host: NativeActionHost, url: string, principal: string): void {
  const q = host.queues.get(url);
  if (!q) throw new SqsError("QueueDoesNotExist", `The specified queue does not exist: ${url}`);
  checkPolicyAllows(q.config, "PurgeQueue", principal);
  for (const m of q.messages) host.record({ type: "purged", queue: url, id: m.id });
  q.messages.length = 0;
}
