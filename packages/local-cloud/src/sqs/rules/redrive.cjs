"use strict";
// What SQS's redrive policy and retention do to a message, the one copy (the local SQS's fidelity/redrive.mjs,
// fidelity/retention.mjs and fidelity/dequeue.mjs, and the simulation's tools/sim/src/sqs/service.ts apply it to their own stores):
// - a receive that would exceed the source queue's `maxReceiveCount` moves the message to its dead-letter queue
//   instead of delivering it; it keeps its id, body, attributes, sender and receive count (its first receive from the
//   DLQ says maxReceiveCount + 1: recorded on AWS) and gains the `DeadLetterQueueSourceArn` system attribute (recorded);
// - MessageRetentionPeriod: a message older than its queue's period is deleted, wherever it is (visible, in flight,
//   delayed), counted from its original enqueue time; a standard DLQ keeps that time, a FIFO DLQ resets it ("the
//   enqueue timestamp resets when the message is moved to a dead-letter queue", SQS Developer Guide, "Setting-up
//   dead-letter queue retention"); a message-move task's copy is a new message (move-tasks.cjs).

/** Whether a receive of a message already received `receives` times moves it to the DLQ instead of delivering it. */
const deadLettersAtReceive = (receives, maxReceiveCount) => receives + 1 > maxReceiveCount;

/**
 * What the move to a dead-letter queue sets on a message: the source's ARN, when it was moved, and, for a FIFO DLQ,
 * the moment its retention restarts from (undefined: it keeps its original enqueue time).
 */
function deadLetterStamp(sourceArn, dlqIsFifo, now) {
  return { deadLetterQueueSourceArn: sourceArn, movedAt: now, retainedFrom: dlqIsFifo ? now : undefined };
}

/** When a message's retention in a queue of `retentionSeconds` runs out (epoch ms), from when its retention began. */
const retentionEnd = (retainedFrom, retentionSeconds) => retainedFrom + retentionSeconds * 1000;

/** Whether SQS has deleted it by `now`: once `now - retainedFrom` exceeds the period. */
const retentionExpired = (retainedFrom, retentionSeconds, now) => now > retentionEnd(retainedFrom, retentionSeconds);

module.exports = { deadLettersAtReceive, deadLetterStamp, retentionEnd, retentionExpired };
