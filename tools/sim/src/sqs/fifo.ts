/**
 * FIFO queues in the simulation's SQS (sqs/service.ts), by the rules the local SQS follows (its fidelity layer, fifo.mjs) and
 * the SQS contract holds both to (tools/sim/test/sqs/conformance/fifo.conformance.test.ts):
 * - a send needs a `MessageGroupId`, and a `MessageDeduplicationId` unless the queue derives one from the body
 *   (content-based deduplication: SHA-256 of the body); a send whose id (within its group, when the queue's scope is
 *   `messageGroup`) was accepted less than 5 minutes ago is accepted and never delivered;
 * - a receive takes the groups whose next message arrived first, and from each its messages in order up to its first
 *   message in flight, as many as the receive asks for;
 * - a FIFO DLQ counts a moved message's retention from the move (the caller, sqs/service.ts).
 */
import { createHash } from "node:crypto";
import { FIFO_DEDUPLICATION_WINDOW_SECONDS } from "@effectively-once/contract";
import { SqsError, type SimQueueConfig, type StoredMessage } from "./model";

/** AWS's characters of a deduplication or group id: alphanumeric and punctuation, 1 to 128 (recorded on AWS). */
const FIFO_ID = /^[\x21-\x7E]{1,128}$/;

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
  for (const [name, value] of [["MessageDeduplicationId", ids.deduplicationId], ["MessageGroupId", ids.groupId]] as const) {
    if (value !== undefined && !FIFO_ID.test(value)) {
      throw new SqsError("InvalidParameterValue", `Value ${value} for parameter ${name} is invalid. Reason: ${name} can only include alphanumeric and punctuation characters. 1 to 128 in length.`);
    }
  }
  if (ids.groupId === undefined) throw new SqsError("MissingParameter", "The request must contain the parameter MessageGroupId.");
  const contentBased = config.fifo?.contentBasedDeduplication === true;
  if (ids.deduplicationId === undefined && !contentBased) {
    throw new SqsError("InvalidParameterValue", "The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly");
  }
  const deduplicationId = ids.deduplicationId ?? createHash("sha256").update(body).digest("hex");
  const scoped = config.fifo?.deduplicationScope === "messageGroup" ? `${ids.groupId} ${deduplicationId}` : deduplicationId;
  const earlier = memory.get(scoped);
  if (earlier !== undefined && now - earlier.at < FIFO_DEDUPLICATION_WINDOW_SECONDS * 1000) return { groupId: ids.groupId, deduplicationId, duplicateOf: earlier.id };
  return { groupId: ids.groupId, deduplicationId };
}

/** Remembers an accepted send's scoped id (after admitFifoSend said it is no duplicate). */
export function rememberFifoSend(config: SimQueueConfig, memory: DeduplicationMemory, message: StoredMessage, now: number): void {
  const scoped = config.fifo?.deduplicationScope === "messageGroup" ? `${message.groupId} ${message.deduplicationId}` : String(message.deduplicationId);
  memory.set(scoped, { at: now, id: message.id });
}

/**
 * The messages a receive may take, in the order it takes them: each group's visible messages in arrival order, up to
 * its first message in flight, the group whose next message arrived first going first.
 */
export function fifoReceivable(messages: readonly StoredMessage[], now: number): StoredMessage[] {
  const groups = new Map<string, StoredMessage[]>();
  for (const m of [...messages].sort((a, b) => (a.arrival ?? 0) - (b.arrival ?? 0))) {
    const group = m.groupId ?? "";
    groups.set(group, [...(groups.get(group) ?? []), m]);
  }
  const runs: StoredMessage[][] = [];
  for (const members of groups.values()) {
    const run: StoredMessage[] = [];
    for (const m of members) {
      if (m.invisibleUntil > now) break;
      run.push(m);
    }
    if (run.length > 0) runs.push(run);
  }
  return runs.sort((a, b) => (a[0].arrival ?? 0) - (b[0].arrival ?? 0)).flat();
}
