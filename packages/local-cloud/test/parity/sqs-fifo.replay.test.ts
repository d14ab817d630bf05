// Replays of LocalStack's AWS-validated SQS FIFO tests (Apache-2.0; tests/aws/services/sqs/test_sqs.py, recordings in
// test_sqs.snapshot.json): deduplication (the 5-minute window outlives a delete; queue-wide by default, per group
// with DeduplicationScope messageGroup), delivery in group order up to a message in flight, and the ids' checks.
// The recordings' `time.sleep` is a step of the local cloud's clock here.
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  type SendMessageCommandInput,
} from "@aws-sdk/client-sqs";
import { answer, expectReplay, failure, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";

const sqs = useLocalSqs("replay");
const fifoQueue = (attributes: Record<string, string> = {}) => sqs.createQueue({ FifoQueue: "true", ...attributes }, `replay-${process.pid}-${Math.random().toString(36).slice(2, 10)}.fifo`);
const send = (input: SendMessageCommandInput) => sqs.client.send(new SendMessageCommand(input));
const receive = (QueueUrl: string, MaxNumberOfMessages?: number) => sqs.client.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages }));
const deleteFirst = async (QueueUrl: string, received: Awaited<ReturnType<typeof receive>>) =>
  sqs.client.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: received.Messages?.[0]?.ReceiptHandle }));

describe("FIFO deduplication (recorded on AWS)", () => {
  it.each([
    ["True", { ContentBasedDeduplication: "true" }, {}],
    ["False", {}, { MessageDeduplicationId: "dedup1" }],
  ])("a repeat within the window is accepted and never delivered, even after the first was deleted (content-based %s)", async (variant, attributes, ids) => {
    const rec = recording("sqs", `TestSqsProvider::test_fifo_deduplication_arrives_once_after_delete[sqs-${variant}]`);
    const url = await fifoQueue(attributes);
    await send({ QueueUrl: url, MessageBody: '{"foo": "bar"}', MessageGroupId: "group-1", ...ids });
    const first = await receive(url);
    await deleteFirst(url, first);
    await send({ QueueUrl: url, MessageBody: '{"foo": "bar"}', MessageGroupId: "group-1", ...ids });
    expectReplay(rec, { "get-messages": answer(first), "get-messages-duplicate": answer(await receive(url)) });
  });

  it.each([
    ["True", { ContentBasedDeduplication: "true" }, {}],
    ["False", {}, { MessageDeduplicationId: "dedup1" }],
  ])("deduplicates across message groups by default (content-based %s)", async (variant, attributes, ids) => {
    const rec = recording("sqs", `TestSqsProvider::test_fifo_deduplication_not_on_message_group_id[sqs-${variant}]`);
    const url = await fifoQueue(attributes);
    await send({ QueueUrl: url, MessageBody: '{"foo": "bar"}', MessageGroupId: "group-1", ...ids });
    await send({ QueueUrl: url, MessageBody: '{"foo": "bar"}', MessageGroupId: "group-2", ...ids });
    expectReplay(rec, { "get-messages": answer(await receive(url, 1)), "get-dedup-messages": answer(await receive(url, 1)) });
  });

  it.each([
    ["test_sqs_fifo_same_dedup_id_different_message_groups[sqs]", { ContentBasedDeduplication: "false" }, ["Test", "Test"]],
    ["test_fifo_high_throughput_ordering[sqs]", { ContentBasedDeduplication: "false", DeduplicationScope: "messageGroup", FifoThroughputLimit: "perMessageGroupId" }, ["Test1", "Test2"]],
  ])("%s: one deduplication id in two groups, scoped as the queue says", async (name, attributes, bodies) => {
    const rec = recording("sqs", `TestSqsProvider::${name}`);
    const url = await fifoQueue(attributes);
    await send({ QueueUrl: url, MessageBody: bodies[0], MessageGroupId: "group1", MessageDeduplicationId: "same-dedup" });
    const first = await receive(url);
    await deleteFirst(url, first);
    await send({ QueueUrl: url, MessageBody: bodies[1], MessageGroupId: "group2", MessageDeduplicationId: "same-dedup" });
    expectReplay(rec, { "same-dedup-different-grp-1": answer(first), "same-dedup-different-grp-2": answer(await receive(url)) });
  });

  it("content-based deduplication scoped to the group, without high-throughput mode", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_sqs_fifo_message_group_scope_no_throughput_setting[sqs]");
    const url = await fifoQueue({ ContentBasedDeduplication: "True", DeduplicationScope: "messageGroup" });
    await send({ QueueUrl: url, MessageBody: "Test", MessageGroupId: "group1" });
    const first = await receive(url);
    await deleteFirst(url, first);
    await send({ QueueUrl: url, MessageBody: "Test", MessageGroupId: "group2" });
    expectReplay(rec, { "same-dedup-different-grp-1": answer(first), "same-dedup-different-grp-2": answer(await receive(url)) });
  });
});

describe("FIFO delivery in group order (recorded on AWS)", () => {
  it.each([0, 1, 2])("a group's messages come in one receive, and none at or after one still in flight (message %i extended)", async (position) => {
    const rec = recording("sqs", `TestSqsProvider::test_fifo_group_visibility_extends_with_change_message_visibility[sqs-${position}-visible]`);
    const url = await fifoQueue({ VisibilityTimeout: "1" });
    for (const body of ["foo", "bar", "baz"]) await send({ QueueUrl: url, MessageBody: body, MessageGroupId: "1", MessageDeduplicationId: body });
    const all = await receive(url, 5);
    await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: all.Messages?.[position]?.ReceiptHandle, VisibilityTimeout: 4 }));
    sqs.pass(1 + (4 - 1) / 2);
    expectReplay(rec, { receive_all_messages: answer(all), "some-messages-invisible": answer(await receive(url, 5)) });
  });

  it("an emptied group takes messages again", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_fifo_empty_message_groups_added_back_to_queue[sqs]");
    const url = await fifoQueue();
    await send({ QueueUrl: url, MessageDeduplicationId: "1", MessageGroupId: "g1", MessageBody: "Message 1" });
    const first = await receive(url);
    await deleteFirst(url, first);
    const empty = await receive(url);
    await send({ QueueUrl: url, MessageDeduplicationId: "2", MessageGroupId: "g1", MessageBody: "Message 2" });
    expectReplay(rec, { "inital-fifo-receive": answer(first), "empty-fifo-receive": answer(empty), "final-fifo-receive": answer(await receive(url)) });
  });
});

describe("FIFO sends' ids and options (recorded on AWS)", () => {
  it("needs a deduplication id (without content-based deduplication) and a group id", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_posting_to_fifo_requires_deduplicationid_group_id[sqs]");
    const url = await fifoQueue();
    expectReplay(
      rec,
      {
        "invalid-parameter-value": await failure(send({ QueueUrl: url, MessageBody: "test", MessageGroupId: "fifo_group-1" })),
        "missing-parameter": await failure(send({ QueueUrl: url, MessageBody: "test", MessageDeduplicationId: "fifo_dedup-1" })),
      },
      { skip: ["$..Error.Detail"] },
    );
  });

  it.each([
    ["empty", ""],
    ["too_long", "a".repeat(129)],
    ["spaces", "group 123"],
  ])("refuses a deduplication id that is %s", async (variant, id) => {
    const rec = recording("sqs", `TestSqsProvider::test_message_deduplication_id_invalid[${variant}]`);
    const url = await fifoQueue();
    expectReplay(rec, { "error-response": await failure(send({ QueueUrl: url, MessageBody: "Hello World!", MessageGroupId: "test", MessageDeduplicationId: id })) });
  });

  it("refuses a per-message delay", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_fifo_queue_send_message_with_delay_seconds_fails[sqs]");
    const url = await fifoQueue();
    expectReplay(rec, { send_message: await failure(send({ QueueUrl: url, MessageBody: "message-1", MessageGroupId: "1", MessageDeduplicationId: "1", DelaySeconds: 2 })) });
  });

  it.each([
    ["deduplication_id", "test_missing_deduplication_id_for_fifo_queue", { MessageGroupId: "1" }],
    ["message_group_id", "test_missing_message_group_id_for_fifo_queue", { MessageDeduplicationId: "1" }],
  ])("refuses a whole batch with an entry missing its %s", async (what, key, ids) => {
    const rec = recording("sqs", `TestSqsProvider::test_send_batch_missing_${what}_for_fifo_queue[sqs]`);
    const url = await fifoQueue();
    expectReplay(rec, { [key]: await failure(sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "1", MessageBody: "message-1", ...ids }] }))) });
  });
});
