/**
 * FIFO queues in the simulation's SQS (sqs/service.ts): SQS's FIFO rules (the ids, content-based deduplication, the
 * deduplication scope, the receive order) are the local cloud's, one copy for both SQS implementations
 * (`@effectively-once/local-cloud/sqs-rules`, packages/local-cloud/src/sqs/rules/fifo.cjs); here they meet the
 * simulation's store: its deduplication memory on the virtual clock (a send whose scoped id was accepted less than
 * 5 minutes ago is accepted and never delivered) and its messages' visibility.
 */
import { FIFO_DEDUPLICATION_WINDOW_SECONDS } from "@effectively-once/contract";
import { contentDeduplicationId, deduplicationKey, fifoIdProblem, fifoReceiveOrder } from "@effectively-once/local-cloud/sqs-rules";
import { SqsError, type SimQueueConfig, type StoredMessage } from "./model";

/** A FIFO send's ids as the producer gave them. */
export interface FifoIds {
  readonly groupId?: string;
  readonly deduplicationId?: string;
}

/** A queue's deduplication memory: scoped id → when it was accepted and the message it named. */
export type DeduplicationMemory = Map<string, { readonly at: number; readonly id: string }>;

/**
 * The ids SQS stores with a FIFO send, or the message it duplicates (accepted less than 5 minutes ago under the same
 * scoped id: the send is accepted and not delivered). Refuses a send that lacks an id or holds a malformed one.
 */
export function admitFifoSend(config: SimQueueConfig, memory: DeduplicationMemory, body: string, ids: FifoIds, now: number): { groupId: string; deduplicationId: string; duplicateOf?: string } {
  const fifo = { contentBasedDeduplication: config.fifo?.contentBasedDeduplication === true };
  const problem = fifoIdProblem({ MessageGroupId: ids.groupId, MessageDeduplicationId: ids.deduplicationId }, fifo, false);
  if (problem || ids.groupId === undefined) throw new SqsError(problem?.code ?? "MissingParameter", problem?.message ?? "MessageGroupId");
  const deduplicationId = ids.deduplicationId ?? contentDeduplicationId(body);
  const earlier = memory.get(deduplicationKey(config.fifo?.deduplicationScope, ids.groupId, deduplicationId));
  if (earlier !== undefined && now - earlier.at < FIFO_DEDUPLICATION_WINDOW_SECONDS * 1000) return { groupId: ids.groupId, deduplicationId, duplicateOf: earlier.id };
  return { groupId: ids.groupId, deduplicationId };
}

/** Remembers an accepted send's scoped id (after admitFifoSend said it is no duplicate). */
export function rememberFifoSend(config: SimQueueConfig, memory: DeduplicationMemory, message: StoredMessage, now: number): void {
  memory.set(deduplicationKey(config.fifo?.deduplicationScope, message.groupId, String(message.deduplicationId)), { at: now, id: message.id });
}

/** The messages a receive may take, in the order it takes them (SQS's rule over the simulation's visibility). */
export function fifoReceivable(messages: readonly StoredMessage[], now: number): StoredMessage[] {
  return fifoReceiveOrder(messages.map((m) => ({ group: m.groupId ?? "", arrival: m.arrival ?? 0, inFlight: m.invisibleUntil > now, item: m })));
}
