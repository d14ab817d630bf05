// Replays of LocalStack's AWS-validated message-move tests (Apache-2.0; tests/aws/services/sqs/test_sqs_move_task.py
// and test_sqs_move_task.snapshot.json): StartMessageMoveTask, ListMessageMoveTasks, CancelMessageMoveTask. The
// recordings wait real seconds at MaxNumberOfMessagesPerSecond 1; here the local cloud's clock moves instead.
import {
  CancelMessageMoveTaskCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  ListMessageMoveTasksCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  StartMessageMoveTaskCommand,
} from "@aws-sdk/client-sqs";
import { waitFor } from "@effectively-once/testing";
import { answer, expectReplay, failure, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";

const sqs = useLocalSqs("replay");
const handle = (taskId: string, sourceArn: string) => Buffer.from(`{"taskId":"${taskId}","sourceArn":"${sourceArn}"}`).toString("base64");
const visible = async (QueueUrl: string) =>
  Number((await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["ApproximateNumberOfMessages"] }))).Attributes?.ApproximateNumberOfMessages);
const list = (SourceArn: string) => sqs.client.send(new ListMessageMoveTasksCommand({ SourceArn }));

/** source --redrive(maxReceiveCount 1)--> dlq, with n messages already dead-lettered. */
async function deadLettered(n: number, bodies = (i: number) => `message-${i}`) {
  const dlq = await sqs.createQueue();
  const dlqArn = await sqs.arnOf(dlq);
  const source = await sqs.createQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: 1 }) });
  for (let i = 0; i < n; i += 1) await sqs.client.send(new SendMessageCommand({ QueueUrl: source, MessageBody: bodies(i) }));
  for (let i = 0; i < 2 * n; i += 1) await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: source, VisibilityTimeout: 0 }));
  await waitFor(async () => (await visible(dlq)) === n, { message: `${n} messages in the DLQ` });
  return { dlq, dlqArn, source, sourceArn: await sqs.arnOf(source) };
}

/**
 * The DLQ after a completed move: nothing to receive, and nothing in flight or delayed that could come back. The
 * recording's 1 s long poll, without its real second (a message left in flight would hide for 30 s from it anyway).
 */
async function expectEmptied(QueueUrl: string): Promise<void> {
  const counts = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] as const;
  const { Attributes = {} } = await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: [...counts] }));
  expect(counts.map((name) => [name, Attributes[name]])).toEqual(counts.map((name) => [name, "0"]));
  expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl }))).Messages ?? []).toEqual([]);
}

async function bodiesIn(QueueUrl: string, n: number): Promise<string[]> {
  const bodies: string[] = [];
  await waitFor(async () => {
    const { Messages = [] } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
    bodies.push(...Messages.map((m) => m.Body as string));
    return bodies.length >= n;
  }, { message: `${n} moved messages` });
  return bodies.sort();
}

describe("StartMessageMoveTask refuses (recorded on AWS)", () => {
  it("a source that is no queue's DLQ", async () => {
    const rec = recording("sqs-move-task", "test_source_needs_redrive_policy");
    const [source, destination] = [await sqs.createQueue(), await sqs.createQueue()];
    const start = sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: await sqs.arnOf(source), DestinationArn: await sqs.arnOf(destination) }));
    expectReplay(rec, { error: await failure(start) });
  });

  it("a destination that does not exist", async () => {
    const rec = recording("sqs-move-task", "test_destination_needs_to_exist");
    const { dlqArn } = await deadLettered(0);
    const destination = `${await sqs.arnOf(await sqs.createQueue())}doesntexist`;
    expectReplay(rec, { error: await failure(sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: destination }))) });
  });

  it("a second task while one runs", async () => {
    const rec = recording("sqs-move-task", "test_start_multiple_move_tasks");
    const { dlqArn } = await deadLettered(10);
    const DestinationArn = await sqs.arnOf(await sqs.createQueue());
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn, MaxNumberOfMessagesPerSecond: 1 }));
    expectReplay(rec, { error: await failure(sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn, MaxNumberOfMessagesPerSecond: 1 }))) });
  });
});

describe("CancelMessageMoveTask refuses (recorded on AWS)", () => {
  it("a handle that is not one", async () => {
    const rec = recording("sqs-move-task", "test_cancel_with_invalid_task_handle");
    expectReplay(rec, { error: await failure(sqs.client.send(new CancelMessageMoveTaskCommand({ TaskHandle: "foobared" }))) });
  });

  it("a handle naming a source queue that does not exist", async () => {
    const rec = recording("sqs-move-task", "test_cancel_with_invalid_source_arn_in_task_handle");
    const TaskHandle = handle("10f57157-fc38-4da9-a113-4de7e12d05dd", "arn:aws:sqs:us-east-1:878966065785:test-queue-doesnt-exist-123456");
    expectReplay(rec, { error: await failure(sqs.client.send(new CancelMessageMoveTaskCommand({ TaskHandle }))) });
  });

  it("a handle naming a task that does not exist", async () => {
    const rec = recording("sqs-move-task", "test_cancel_with_invalid_task_id_in_task_handle");
    const TaskHandle = handle("10f57157-fc38-4da9-a113-4de7e12d05aa", await sqs.arnOf(await sqs.createQueue()));
    expectReplay(rec, { error: await failure(sqs.client.send(new CancelMessageMoveTaskCommand({ TaskHandle }))) });
  });
});

describe("Message move tasks run (recorded on AWS)", () => {
  it("to a destination queue: both messages moved, task COMPLETED, handle = base64 {taskId, sourceArn}", async () => {
    const rec = recording("sqs-move-task", "test_basic_move_task_workflow");
    const { dlq, dlqArn } = await deadLettered(2);
    const destination = await sqs.createQueue();
    const started = await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: await sqs.arnOf(destination) }));
    const decoded = JSON.parse(Buffer.from(started.TaskHandle as string, "base64").toString("utf8")) as { taskId: string; sourceArn: string };
    expect(decoded.sourceArn).toBe(dlqArn);
    expect(decoded.taskId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(await bodiesIn(destination, 2)).toEqual(["message-0", "message-1"]);
    const done = await waitFor(async () => {
      const tasks = await list(dlqArn);
      return tasks.Results?.[0]?.ApproximateNumberOfMessagesMoved === 2 && tasks;
    });
    expectReplay(rec, { "start-message-move-task-response": answer(started), "list-message-move-task-response": answer(done) });
    await expectEmptied(dlq);
  });

  it("without a destination: each message back to the queue it came from", async () => {
    const rec = recording("sqs-move-task", "test_move_task_workflow_with_default_destination");
    const { dlq, dlqArn, source, sourceArn } = await deadLettered(2);
    const started = await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn }));
    expect(await bodiesIn(source, 2)).toEqual(["message-0", "message-1"]);
    const done = await waitFor(async () => {
      const tasks = await list(dlqArn);
      return tasks.Results?.[0]?.ApproximateNumberOfMessagesMoved === 2 && tasks;
    });
    expectReplay(rec, { "source-arn": dlqArn, "original-source": sourceArn, "start-message-move-task-response": answer(started), "list-message-move-task-response": answer(done) });
    await expectEmptied(dlq);
  });

  it("without a destination, two sources sharing the DLQ: each gets its own back", async () => {
    const rec = recording("sqs-move-task", "test_move_task_workflow_with_multiple_sources_as_default_destination");
    const first = await deadLettered(2, (i) => `message-1-${i + 1}`);
    const second = await sqs.createQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: first.dlqArn, maxReceiveCount: 1 }) });
    for (const body of ["message-2-1", "message-2-2"]) await sqs.client.send(new SendMessageCommand({ QueueUrl: second, MessageBody: body }));
    for (let i = 0; i < 4; i += 1) await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: second, VisibilityTimeout: 0 }));
    await waitFor(async () => (await visible(first.dlq)) === 4);
    const started = await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: first.dlqArn }));
    expect(await bodiesIn(first.source, 2)).toEqual(["message-1-1", "message-1-2"]);
    expect(await bodiesIn(second, 2)).toEqual(["message-2-1", "message-2-2"]);
    const done = await waitFor(async () => {
      const tasks = await list(first.dlqArn);
      return tasks.Results?.[0]?.ApproximateNumberOfMessagesMoved === 4 && tasks;
    });
    expectReplay(rec, {
      "source-arn": first.dlqArn,
      "original-source-1": first.sourceArn,
      "original-source-2": await sqs.arnOf(second),
      "start-message-move-task-response": answer(started),
      "list-message-move-task-response": answer(done),
    });
  });

  it("MaxNumberOfMessagesPerSecond 1: four messages take three seconds", async () => {
    const rec = recording("sqs-move-task", "test_move_task_with_throughput_limit");
    const { dlqArn } = await deadLettered(4);
    const destination = await sqs.createQueue();
    const begun = Date.now();
    const started = await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: await sqs.arnOf(destination), MaxNumberOfMessagesPerSecond: 1 }));
    expectReplay(rec, { "start-message-move-task-response": answer(started) });
    for (let moved = 1; moved <= 4; moved += 1) {
      await waitFor(async () => (await visible(destination)) >= moved, { message: `${moved} moved` });
      expect(await visible(destination)).toBe(moved);
      if (moved < 4) sqs.pass(1);
    }
    expect(Date.now() - begun).toBeGreaterThanOrEqual(3000);
  });

  it("cancelled after two: RUNNING while it runs, CANCELLED after, the rest left in the DLQ", async () => {
    const rec = recording("sqs-move-task", "test_move_task_cancel");
    const { dlq, dlqArn } = await deadLettered(10);
    const destination = await sqs.createQueue();
    const started = await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: await sqs.arnOf(destination), MaxNumberOfMessagesPerSecond: 1 }));
    await waitFor(async () => (await visible(destination)) === 1);
    sqs.pass(1);
    await waitFor(async () => (await visible(destination)) === 2);
    const during = await list(dlqArn);
    const cancelled = await sqs.client.send(new CancelMessageMoveTaskCommand({ TaskHandle: started.TaskHandle }));
    const after = await waitFor(async () => {
      const tasks = await list(dlqArn);
      return tasks.Results?.[0]?.Status === "CANCELLED" && tasks;
    });
    expectReplay(rec, { "list-while": answer(during), cancel: answer(cancelled), "list-after": answer(after) }, { skip: ["$..ApproximateNumberOfMessagesMoved"] });
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq }))).Messages?.length).toBeGreaterThan(0);
  });

  it("the destination deleted while it runs: FAILED, the rest left in the DLQ", async () => {
    const rec = recording("sqs-move-task", "test_move_task_delete_destination_queue_while_running");
    const { dlq, dlqArn } = await deadLettered(10);
    const destination = await sqs.createQueue();
    await sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlqArn, DestinationArn: await sqs.arnOf(destination), MaxNumberOfMessagesPerSecond: 1 }));
    await sqs.client.send(new DeleteQueueCommand({ QueueUrl: destination }));
    sqs.pass(1);
    const ended = await waitFor(async () => {
      const tasks = await list(dlqArn);
      return tasks.Results?.[0]?.Status !== "RUNNING" && tasks;
    });
    expectReplay(rec, { list: answer(ended) }, { skip: ["$..Results..ApproximateNumberOfMessagesMoved", "$..Results..FailureReason"] });
    expect(ended.Results?.[0]?.FailureReason).toBe("AWS.SimpleQueueService.NonExistentQueue");
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: dlq }))).Messages?.length).toBeGreaterThan(0);
  });
});
