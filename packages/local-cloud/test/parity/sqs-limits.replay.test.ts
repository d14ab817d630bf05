// Replays of LocalStack's AWS-validated SQS tests (Apache-2.0; tests/aws/services/sqs/test_sqs.py, recordings in
// test_sqs.snapshot.json): size and character limits, batch limits and the errors AWS answers, in the JSON
// protocol's spelling (`x-amzn-query-error` code, `__type` as QueryErrorCode) and the query protocol's.
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  DeleteQueueCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
} from "@aws-sdk/client-sqs";
import type { Message } from "@aws-sdk/client-sqs";
import { answer, expectReplay, failure, failureText, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";
import { queryCall, queryFailure } from "./sqs-query-client";

const sqs = useLocalSqs("replay");
const DETAIL = { skip: ["$..Error.Detail"] };
const MAX = 1_048_576;
const K = { k: { DataType: "String", StringValue: "x" } };

describe("Message size (recorded on AWS)", () => {
  it("one byte over the default maximum (body + attribute name, type and value): InvalidParameterValue", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_oversized_message[sqs]");
    const url = await sqs.createQueue();
    const send = sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "a".repeat(MAX - 8 + 1), MessageAttributes: K }));
    expectReplay(rec, { send_oversized_message: await failure(send) }, DETAIL);
  });

  it("the same over the query protocol", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_oversized_message[sqs_query]");
    const url = await sqs.createQueue();
    const send = queryCall(sqs.endpoint, "SendMessage", { QueueUrl: url, MessageBody: "a".repeat(MAX - 8 + 1), MessageAttributes: K });
    expectReplay(rec, { send_oversized_message: await queryFailure(send) }, DETAIL);
  });

  it("after SetQueueAttributes MaximumMessageSize 1024", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_message_with_updated_maximum_message_size[sqs]");
    const url = await sqs.createQueue();
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { MaximumMessageSize: "1024" } }));
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "a".repeat(1024) }));
    const send = sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "a".repeat(1024 - 8 + 1), MessageAttributes: K }));
    expectReplay(rec, { send_oversized_message: await failure(send) }, DETAIL);
  });

  it("a batch over 1 MiB in total: BatchRequestTooLong", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_message_batch_with_oversized_contents[sqs]");
    const url = await sqs.createQueue();
    const send = sqs.client.send(
      new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "1", MessageBody: "a".repeat(MAX - 8), MessageAttributes: K }, { Id: "2", MessageBody: "a" }] }),
    );
    expectReplay(rec, { send_oversized_message_batch: await failure(send) }, DETAIL);
  });

  it("a batch whose entries each fit the queue's MaximumMessageSize", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_message_batch_with_oversized_contents_with_updated_maximum_message_size[sqs]");
    const url = await sqs.createQueue();
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { MaximumMessageSize: "2048" } }));
    const sent = await sqs.client.send(
      new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "1", MessageBody: "a".repeat(2048 - 8), MessageAttributes: K }, { Id: "2", MessageBody: "a" }] }),
    );
    expectReplay(rec, { send_oversized_message_batch: answer(sent) });
  });

  it("a batch entry over the queue's maximum fails alone", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_batch_message_size");
    const url = await sqs.createQueue({ MaximumMessageSize: "1024" });
    const sent = await sqs.client.send(
      new SendMessageBatchCommand({
        QueueUrl: url,
        Entries: [
          { Id: "a4cff0d1-1961-44bd-ae53-c6d5ed71ed08", MessageBody: "a".repeat(1024) },
          { Id: "35b535ed-b76a-4ebd-b749-6eb35cdb55ee", MessageBody: "a".repeat(1025) },
        ],
      }),
    );
    expectReplay(rec, { "send-message-batch-result": answer(sent) }, { skip: ["$..Failed..Code", "$..Failed..Message"] });
  });
});

describe("Bodies and attributes (recorded on AWS)", () => {
  it("an empty body: MissingParameter", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_empty_message[sqs]");
    const url = await sqs.createQueue();
    expectReplay(rec, { send_empty_message: await failure(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "" }))) }, DETAIL);
  });

  it("an empty body over the query protocol", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_empty_message[sqs_query]");
    const url = await sqs.createQueue();
    expectReplay(rec, { send_empty_message: await queryFailure(queryCall(sqs.endpoint, "SendMessage", { QueueUrl: url, MessageBody: "" })) }, DETAIL);
  });

  it("an empty String attribute", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_message_with_empty_string_attribute[sqs]");
    const url = await sqs.createQueue();
    const send = sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes: { ErrorDetails: { StringValue: "", DataType: "String" } } }));
    expectReplay(rec, { "empty-string-attr": await failure(send) }, DETAIL);
  });

  it("a Binary attribute comes back byte for byte", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_message_with_binary_attributes[sqs]");
    const url = await sqs.createQueue();
    const value = Buffer.from("traceparent\x1e00-774062d6c37081a5a0b9b5b88e30627c-2d2482211f6489da-01", "latin1");
    const sent = await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes: { attr1: { BinaryValue: value, DataType: "Binary" } } }));
    const received = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MessageAttributeNames: ["All"] }));
    expect(received.Messages?.[0]?.MessageId).toBe(sent.MessageId);
    expectReplay(rec, { "binary-attrs-msg": answer(received) });
  });

  it("invalid attribute names, types and values are refused (test_send_message_with_invalid_string_attributes)", async () => {
    const url = await sqs.createQueue();
    const send = (MessageAttributes: Record<string, { StringValue: string; DataType: string }>) =>
      sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "test", MessageAttributes }));
    await send({ "attr.1øßä": { StringValue: "Valida", DataType: "String" } });
    const invalid = [
      { attr1: { StringValue: `Invalid-${String.fromCharCode(8)},${String.fromCharCode(11)}`, DataType: "String" } },
      ...["aWs.", "AMAZON.", "."].map((prefix) => ({ [`${prefix}-Invalid-attr`]: { StringValue: "Valid", DataType: "String" } })),
      ...["!", '"', "§", "(", "?"].map((c) => ({ [`Invalid-${c}-attr`]: { StringValue: "Valid", DataType: "String" } })),
      { ["L".repeat(257)]: { StringValue: "Valid", DataType: "String" } },
      { Attribute_name: { StringValue: "Valid", DataType: "Invalid" } },
      { Attribute_name: { StringValue: "Valid", DataType: `Number.${"L".repeat(256)}` } },
      { "Invalid.": { StringValue: "Valid", DataType: "String" } },
    ];
    // pytest's `e.match("Invalid")` searches str(ClientError), which names the error code.
    for (const attributes of invalid) expect(await failureText(send(attributes), "SendMessage")).toMatch(/Invalid/);
  });

  it("characters outside SQS's set: InvalidMessageContents (test_send_message_with_invalid_payload_characters)", async () => {
    const url = await sqs.createQueue();
    const body = `Invalid-${String.fromCharCode(0)}-${String.fromCharCode(8)}-${String.fromCharCode(19)}-${String.fromCharCode(65535)}`;
    await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }))).rejects.toMatchObject({ name: "InvalidMessageContents" });
  });
});

describe("Batches and receives (recorded on AWS)", () => {
  const twenty = Array.from({ length: 20 }, (_, i) => ({ Id: `message-${i}`, MessageBody: `messageBody-${i}` }));

  async function twentyReceived(url: string): Promise<Message[]> {
    await sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: twenty.slice(0, 10) }));
    await sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: twenty.slice(10) }));
    const got: Message[] = [];
    for (let i = 0; i < 10 && got.length < 20; i += 1) got.push(...((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10 }))).Messages ?? []));
    return got;
  }

  it("20 entries in SendMessageBatch: TooManyEntriesInBatchRequest", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_too_many_entries_in_batch_request[sqs]");
    const url = await sqs.createQueue();
    expectReplay(rec, { test_too_many_entries_in_batch_request: await failure(sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: twenty }))) }, DETAIL);
  });

  it("a batch entry id with a colon: InvalidBatchEntryId", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_invalid_batch_id[sqs]");
    const url = await sqs.createQueue();
    const send = sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "message:a1b2c3", MessageBody: "messageBody-a1b2c3" }] }));
    expectReplay(rec, { test_invalid_batch_id: await failure(send) }, DETAIL);
  });

  it("20 entries in DeleteMessageBatch: TooManyEntriesInBatchRequest", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_delete_message_batch_with_too_large_batch[sqs]");
    const url = await sqs.createQueue();
    const received = await twentyReceived(url);
    const entries = received.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle }));
    expectReplay(rec, { error_response: await failure(sqs.client.send(new DeleteMessageBatchCommand({ QueueUrl: url, Entries: entries }))) }, DETAIL);
  });

  it("20 entries in ChangeMessageVisibilityBatch: TooManyEntriesInBatchRequest", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_change_message_visibility_batch_with_too_large_batch[sqs]");
    const url = await sqs.createQueue();
    const received = await twentyReceived(url);
    const entries = received.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: 123 }));
    expectReplay(rec, { error_response: await failure(sqs.client.send(new ChangeMessageVisibilityBatchCommand({ QueueUrl: url, Entries: entries }))) }, DETAIL);
  });

  it("MaxNumberOfMessages 11: InvalidParameterValue", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_receive_max_number_of_messages[sqs]");
    const url = await sqs.createQueue();
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "message" }));
    expectReplay(rec, { send_max_number_of_messages: await failure(sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 11 }))) }, DETAIL);
  });

  it("WaitTimeSeconds outside 0..20: InvalidParameterValue; short polls by default", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_send_receive_wait_time_seconds[sqs]");
    const url = await sqs.createQueue();
    for (let i = 0; i < 2; i += 1) await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "message" }));
    expectReplay(
      rec,
      {
        recieve_message_error_too_large: await failure(sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 21 }))),
        recieve_message_error_too_small: await failure(sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: -1 }))),
        empty_short_poll_by_default_resp: answer(await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }))),
        empty_short_poll_explicit_resp: answer(await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, WaitTimeSeconds: 0 }))),
      },
      DETAIL,
    );
  });

  it("an empty queue answers no Messages member, short and long poll", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_receive_empty_queue[sqs]");
    const url = await sqs.createQueue();
    expectReplay(rec, {
      empty_short_poll_resp: answer(await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }))),
      empty_long_poll_resp: answer(await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1, WaitTimeSeconds: 1 }))),
    });
  });
});

describe("Queues (recorded on AWS)", () => {
  it("a deleted queue: QueueDoesNotExist, spelled per protocol", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_non_existent_queue");
    const name = `gone-${process.pid}`;
    const url = await sqs.createQueue({}, name);
    await sqs.client.send(new DeleteQueueCommand({ QueueUrl: url }));
    expectReplay(
      rec,
      {
        "queue-does-not-exist": await failure(sqs.client.send(new GetQueueAttributesCommand({ QueueUrl: url }))),
        "queue-does-not-exist-url": await failure(sqs.client.send(new GetQueueUrlCommand({ QueueName: name }))),
        "queue-does-not-exist-query": await queryFailure(queryCall(sqs.endpoint, "GetQueueAttributes", { QueueUrl: url })),
      },
      DETAIL,
    );
  });

  it("a second PurgeQueue within 60 seconds: PurgeQueueInProgress", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_successive_purge_calls_fail[sqs]");
    const name = `purged-${process.pid}`;
    const url = await sqs.createQueue({}, name);
    await sqs.client.send(new PurgeQueueCommand({ QueueUrl: url }));
    expectReplay(rec, { purge_queue_error: await failure(sqs.client.send(new PurgeQueueCommand({ QueueUrl: url }))) }, { ...DETAIL, replace: [[name, "<queue-name>"]] });
  });
});
