// Dead-letter queue redrive: StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask and
// ListDeadLetterSourceQueues, with AWS's semantics and answers (SQS API reference; errors and answer shapes as
// recorded on AWS in LocalStack's test_sqs_move_task):
// - the source must be some queue's dead-letter queue; one running task per source;
// - a task moves the messages visible in the source when it starts (ApproximateNumberOfMessagesToMove), oldest
//   first, to the destination or, without one, each back to the queue it was dead-lettered from;
// - at most MaxNumberOfMessagesPerSecond (1–500; default 500, the documented maximum) per second of the local
//   cloud's clock, the first at once;
// - a moved message is a new message: new id, new enqueue time (its retention starts again), receive count 0; it
//   keeps its body, message attributes, sender and trace header (SQS Developer Guide, "configure dead-letter queue
//   redrive": "All redriven messages are considered new messages with a new messageID and enqueueTime");
// - a destination that disappears fails the task (FailureReason AWS.SimpleQueueService.NonExistentQueue).
import { randomUUID } from "node:crypto";
import { sqsError } from "./aws-errors.mjs";
import { QueueDoesNotExistError, SqsStore } from "./fauxqs-internals.mjs";
import { forgetHandles } from "./receipt-handles.mjs";

const DEFAULT_RATE = 500;
const TICK_MS = 20;
export const MoveTaskStatus = { Running: "RUNNING", Completed: "COMPLETED", Cancelled: "CANCELLED", Failed: "FAILED" };

const notFound = (parameter) => sqsError("ResourceNotFoundException", `The resource that you specified for the ${parameter} parameter doesn't exist.`, 404);

/** The queues whose redrive policy names `arn` as their dead-letter queue. */
function sourcesOf(store, arn) {
  return store.listQueues().filter((queue) => {
    try {
      return JSON.parse(queue.attributes.RedrivePolicy ?? "{}").deadLetterTargetArn === arn;
    } catch {
      return false;
    }
  });
}

const encodeHandle = (taskId, sourceArn) => Buffer.from(JSON.stringify({ taskId, sourceArn })).toString("base64");

function decodeHandle(handle) {
  try {
    const { taskId, sourceArn } = JSON.parse(Buffer.from(String(handle), "base64").toString("utf8"));
    if (typeof taskId === "string" && typeof sourceArn === "string") return { taskId, sourceArn };
  } catch {
    // not a task handle
  }
  throw sqsError("InvalidParameterValue", "Value for parameter TaskHandle is invalid.");
}

/** The move tasks of one SQS store, per source queue ARN (latest last). */
function tasksOf(store) {
  store.moveTasks ??= new Map();
  return store.moveTasks;
}

function moveOne(store, task, source) {
  source.processTimers();
  const message = source.messages[0] ?? [...source.fifoMessages.values()].find((group) => group.length > 0)?.[0];
  if (!message) return false;
  const destination = store.getQueueByArn(task.destinationArn ?? message.deadLetterQueueSourceArn);
  if (!destination) {
    task.status = MoveTaskStatus.Failed;
    task.failureReason = "AWS.SimpleQueueService.NonExistentQueue";
    return false;
  }
  const group = message.messageGroupId ? source.fifoMessages.get(message.messageGroupId) : source.messages;
  group.splice(group.indexOf(message), 1);
  forgetHandles(source, message);
  const moved = SqsStore.createMessage(message.body, message.messageAttributes, undefined, message.messageGroupId, message.messageDeduplicationId);
  moved.senderId = message.senderId;
  moved.awsTraceHeader = message.awsTraceHeader;
  if (destination.isFifo()) moved.sequenceNumber = destination.nextSequenceNumber();
  destination.enqueue(moved);
  task.moved += 1;
  return true;
}

function run(store, task) {
  const tick = () => {
    const source = store.getQueueByArn(task.sourceArn);
    const allowed = Math.floor(((Date.now() - task.startedAt) / 1000) * task.rate) + 1;
    while (task.status === MoveTaskStatus.Running && task.moved < Math.min(allowed, task.toMove)) {
      if (!source || !moveOne(store, task, source)) break;
    }
    if (task.status === MoveTaskStatus.Running && (task.moved >= task.toMove || !source || !hasVisible(source))) task.status = MoveTaskStatus.Completed;
    if (task.status !== MoveTaskStatus.Running) clearInterval(task.timer);
  };
  task.timer = setInterval(tick, TICK_MS);
  tick();
}

function hasVisible(queue) {
  queue.processTimers();
  return queue.messages.length > 0 || [...queue.fifoMessages.values()].some((group) => group.length > 0);
}

function start(body, store) {
  const source = store.getQueueByArn(body.SourceArn);
  if (!source) throw notFound("SourceArn");
  if (sourcesOf(store, source.arn).length === 0) throw sqsError("InvalidParameterValue", "Source queue must be configured as a Dead Letter Queue.");
  const destination = body.DestinationArn === undefined ? undefined : store.getQueueByArn(body.DestinationArn);
  if (body.DestinationArn !== undefined && !destination) throw notFound("DestinationArn");
  if (destination && destination.isFifo() !== source.isFifo()) {
    throw sqsError("InvalidParameterValue", "The source queue and the destination queue must be of the same type (standard or FIFO).");
  }
  const rate = body.MaxNumberOfMessagesPerSecond;
  if (rate !== undefined && (!Number.isInteger(rate) || rate < 1 || rate > DEFAULT_RATE)) {
    throw sqsError("InvalidParameterValue", `Value ${rate} for parameter MaxNumberOfMessagesPerSecond is invalid. Reason: Must be between 1 and ${DEFAULT_RATE}.`);
  }
  const tasks = tasksOf(store).get(source.arn) ?? [];
  if (tasks.some((task) => task.status === MoveTaskStatus.Running)) {
    throw sqsError("InvalidParameterValue", "There is already a task running. Only one active task is allowed for a source queue arn at a given time.");
  }
  source.processTimers();
  const task = {
    taskId: randomUUID(),
    sourceArn: source.arn,
    destinationArn: body.DestinationArn,
    maxPerSecond: rate,
    rate: rate ?? DEFAULT_RATE,
    status: MoveTaskStatus.Running,
    moved: 0,
    toMove: Number(source.getAttribute("ApproximateNumberOfMessages")),
    startedAt: Date.now(),
  };
  tasksOf(store).set(source.arn, [...tasks, task]);
  run(store, task);
  return { TaskHandle: encodeHandle(task.taskId, task.sourceArn) };
}

function describe(task) {
  return {
    ...(task.status === MoveTaskStatus.Running ? { TaskHandle: encodeHandle(task.taskId, task.sourceArn) } : {}),
    Status: task.status,
    SourceArn: task.sourceArn,
    ...(task.destinationArn === undefined ? {} : { DestinationArn: task.destinationArn }),
    ...(task.maxPerSecond === undefined ? {} : { MaxNumberOfMessagesPerSecond: task.maxPerSecond }),
    ApproximateNumberOfMessagesMoved: task.moved,
    ApproximateNumberOfMessagesToMove: task.toMove,
    ...(task.failureReason === undefined ? {} : { FailureReason: task.failureReason }),
    StartedTimestamp: task.startedAt,
  };
}

export const moveTaskActions = new Map([
  ["StartMessageMoveTask", (body, store) => start(body, store)],
  [
    "ListMessageMoveTasks",
    (body, store) => {
      const source = store.getQueueByArn(body.SourceArn);
      if (!source) throw notFound("SourceArn");
      const max = body.MaxResults ?? 1;
      if (!Number.isInteger(max) || max < 1 || max > 10) throw sqsError("InvalidParameterValue", `Value ${max} for parameter MaxResults is invalid. Reason: Must be between 1 and 10.`);
      const tasks = [...(tasksOf(store).get(source.arn) ?? [])].reverse().slice(0, max);
      return { Results: tasks.map(describe) };
    },
  ],
  [
    "CancelMessageMoveTask",
    (body, store) => {
      const { taskId, sourceArn } = decodeHandle(body.TaskHandle);
      if (!store.getQueueByArn(sourceArn)) throw notFound("SourceArn");
      const task = (tasksOf(store).get(sourceArn) ?? []).find((candidate) => candidate.taskId === taskId);
      if (!task) throw sqsError("ResourceNotFoundException", "Task does not exist.", 404);
      if (task.status !== MoveTaskStatus.Running) throw sqsError("InvalidParameterValue", `Only a RUNNING task can be cancelled; this one is ${task.status}.`);
      task.status = MoveTaskStatus.Cancelled;
      clearInterval(task.timer);
      return { ApproximateNumberOfMessagesMoved: task.moved };
    },
  ],
  [
    "ListDeadLetterSourceQueues",
    (body, store) => {
      const queue = store.getQueue(body.QueueUrl);
      if (!queue) throw new QueueDoesNotExistError();
      const urls = sourcesOf(store, queue.arn).map((source) => source.url);
      const from = body.NextToken ? Number(Buffer.from(body.NextToken, "base64").toString("utf8")) || 0 : 0;
      const to = body.MaxResults ? from + body.MaxResults : urls.length;
      return { queueUrls: urls.slice(from, to), ...(to < urls.length ? { NextToken: Buffer.from(String(to)).toString("base64") } : {}) };
    },
  ],
]);

/** Stops every running task's timer (the server is closing). */
export function stopMoveTasks(store) {
  for (const tasks of store.moveTasks?.values() ?? []) for (const task of tasks) clearInterval(task.timer);
}
