"use strict";
// StartMessageMoveTask's rules, the one copy (SQS API reference; errors as recorded on AWS in LocalStack's
// test_sqs_move_task), applied by the local SQS (fidelity/move-tasks.mjs: a task that runs on the local cloud's clock)
// and the simulation's SQS (tools/sim/src/sqs/native-actions.ts: a task done at once):
// - the source must be some queue's dead-letter queue (StartMessageMoveTask "is currently limited to supporting message
//   redrive from queues that are configured as dead-letter queues (DLQs) of other Amazon SQS queues"); a destination,
//   when given, must exist and be of the source's type; one running task per source;
// - at most MaxNumberOfMessagesPerSecond (1-500; default 500, the documented maximum) per second;
// - a moved message is a new message: new id, new enqueue time (its retention starts again), receive count 0; it keeps
//   its body, message attributes, sender, trace header and, in a FIFO queue, its group and deduplication id (SQS
//   Developer Guide, "configure dead-letter queue redrive": "All redriven messages are considered new messages with a
//   new messageID and enqueueTime"; AWS does not say what becomes of attributes or SenderId: kept);
// - without a DestinationArn, each message goes back to the queue the redrive policy moved it from, its
//   DeadLetterQueueSourceArn (StartMessageMoveTask: "the messages will be redriven back to their respective original
//   source queues"). A message sent to the DLQ directly has no source queue: what AWS does with it is neither documented
//   nor recorded (LocalStack's AWS-validated test_sqs_move_task sends none; its provider assumes every message has a
//   source), so this rule names no destination for it and each implementation says what it does (docs/simulation.md,
//   packages/local-cloud/src/SUPPORTED.md).

const MAX_MOVE_RATE = 500;

const notFound = (parameter) => ({ code: "ResourceNotFoundException", message: `The resource that you specified for the ${parameter} parameter doesn't exist.`, status: 404 });
const invalid = (message) => ({ code: "InvalidParameterValue", message });

/**
 * Whether a task may start, in SQS's order of checks: undefined, or the `{ code, message, status? }` SQS answers.
 * `source` / `destination`: `{ fifo }` of the queues found (undefined: none); `destinationArn`: as given;
 * `sourceIsDeadLetterQueue`: some queue's redrive policy names the source; `running`: a task of the source runs.
 */
function moveTaskStartProblem({ source, sourceIsDeadLetterQueue, destinationArn, destination, rate, running }) {
  if (!source) return notFound("SourceArn");
  if (!sourceIsDeadLetterQueue) return invalid("Source queue must be configured as a Dead Letter Queue.");
  if (destinationArn !== undefined && !destination) return notFound("DestinationArn");
  if (destination && destination.fifo !== source.fifo) return invalid("The source queue and the destination queue must be of the same type (standard or FIFO).");
  if (rate !== undefined && (!Number.isInteger(rate) || rate < 1 || rate > MAX_MOVE_RATE)) {
    return invalid(`Value ${rate} for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and ${MAX_MOVE_RATE}.`);
  }
  if (running) return invalid("There is already a task running. Only one active task is allowed for a source queue arn at a given time.");
  return undefined;
}

/** How many messages a task moving `rate` a second may have moved `elapsedMs` after it started (the first at once). */
const movesAllowed = (rate, elapsedMs) => Math.floor((elapsedMs / 1000) * (rate ?? MAX_MOVE_RATE)) + 1;

/** What a moved copy keeps of the message it moves (the store gives it a new id, its own enqueue time now and count 0). */
function movedCopy(message) {
  const { body, attributes, senderId, traceHeader, groupId, deduplicationId } = message;
  return { body, attributes, senderId, traceHeader, groupId, deduplicationId };
}

/** Where a task moves a message: its DestinationArn, else the message's source queue; undefined: no known destination. */
const moveDestinationArn = (destinationArn, deadLetterQueueSourceArn) => destinationArn ?? deadLetterQueueSourceArn;

module.exports = { MAX_MOVE_RATE, moveTaskStartProblem, movesAllowed, movedCopy, moveDestinationArn };
