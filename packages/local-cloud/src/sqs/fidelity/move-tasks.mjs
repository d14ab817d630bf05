// Dead-letter queue redrive in the local SQS: StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask and
// ListDeadLetterSourceQueues, with AWS's answers (SQS API reference; answer shapes as recorded on AWS in LocalStack's
// test_sqs_move_task). The rules (which task may start, its rate, what a copy keeps) are ../rules/move-tasks.cjs; here
// a task moves the messages visible in the source when it starts (ApproximateNumberOfMessagesToMove), oldest first, to
// the destination or, without one, each back to the queue it was dead-lettered from, on the local cloud's clock; a
// destination that disappears fails the task (FailureReason AWS.SimpleQueueService.NonExistentQueue).
import { randomUUID } from "node:crypto";
import { sqsError } from "./aws-errors.mjs";
import { QueueDoesNotExistError, SqsStore } from "./fauxqs-internals.mjs";
import { forgetHandles } from "./receipt-handles.mjs";
import moveTaskRules from "../rules/move-tasks.cjs";

const { movedCopy, moveDestinationArn, moveTaskStartProblem, movesAllowed } = moveTaskRules;
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
  // No known destination (a message sent to the DLQ directly, without DestinationArn): the task fails, as for a
  // destination that no longer exists (AWS's behaviour is unrecorded: SUPPORTED.md).
  const arn = moveDestinationArn(task.destinationArn, message.deadLetterQueueSourceArn);
  const destination = arn === undefined ? undefined : store.getQueueByArn(arn);
  if (!destination) {
    task.status = MoveTaskStatus.Failed;
    task.failureReason = "AWS.SimpleQueueService.NonExistentQueue";
    return false;
  }
  const group = message.messageGroupId ? source.fifoMessages.get(message.messageGroupId) : source.messages;
  group.splice(group.indexOf(message), 1);
  forgetHandles(source, message);
  const copy = movedCopy({ body: message.body, attributes: message.messageAttributes, senderId: message.senderId, traceHeader: message.awsTraceHeader, groupId: message.messageGroupId, deduplicationId: message.messageDeduplicationId });
  const moved = SqsStore.createMessage(copy.body, copy.attributes, undefined, copy.groupId, copy.deduplicationId);
  moved.senderId = copy.senderId;
  moved.awsTraceHeader = copy.traceHeader;
  if (destination.isFifo()) moved.sequenceNumber = destination.nextSequenceNumber();
  destination.enqueue(moved);
  task.moved += 1;
  return true;
}

function run(store, task) {
  const tick = () => {
    const source = store.getQueueByArn(task.sourceArn);
    const allowed = movesAllowed(task.maxPerSecond, Date.now() - task.startedAt);
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
  const destination = body.DestinationArn === undefined ? undefined : store.getQueueByArn(body.DestinationArn);
  const tasks = source ? (tasksOf(store).get(source.arn) ?? []) : [];
  const problem = moveTaskStartProblem({
    source: source && { fifo: source.isFifo() },
    sourceIsDeadLetterQueue: source !== undefined && sourcesOf(store, source.arn).length > 0,
    destinationArn: body.DestinationArn,
    destination: destination && { fifo: destination.isFifo() },
    rate: body.MaxNumberOfMessagesPerSecond,
    running: tasks.some((task) => task.status === MoveTaskStatus.Running),
  });
  if (problem) throw sqsError(problem.code, problem.message, problem.status);
  source.processTimers();
  const task = {
    taskId: randomUUID(),
    sourceArn: source.arn,
    destinationArn: body.DestinationArn,
    maxPerSecond: body.MaxNumberOfMessagesPerSecond,
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
