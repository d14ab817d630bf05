// Replays of LocalStack's AWS-validated SQS tests (Apache-2.0; tests/aws/services/sqs/test_sqs.py, recordings in
// test_sqs.snapshot.json): visibility timeouts and receipt handles, old and new. The recordings' `time.sleep` is a
// step of the local cloud's clock here. Tests without a snapshot replay the recorded test's assertions
// (`markers.aws.validated`, no validation date).
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { answer, expectReplay, failure, recording } from "./replay";
import { useLocalSqs } from "../support/local-sqs";
import { queryCall } from "./sqs-query-client";

const sqs = useLocalSqs("replay");

async function sendOne(queueUrl: string, body = "test"): Promise<void> {
  await sqs.client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));
}
const receive = (QueueUrl: string, VisibilityTimeout?: number) => sqs.client.send(new ReceiveMessageCommand({ QueueUrl, VisibilityTimeout }));
const handleOf = async (QueueUrl: string, VisibilityTimeout?: number) => (await receive(QueueUrl, VisibilityTimeout)).Messages?.[0]?.ReceiptHandle as string;
const count = async (QueueUrl: string) =>
  (await sqs.client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] }))).Attributes;

describe("Receipt handles after the visibility timeout (recorded on AWS)", () => {
  it("ChangeMessageVisibility with the handle of a receive whose visibility ran out succeeds", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_change_message_visibility_after_visibility_timeout_expiration[sqs]");
    const url = await sqs.createQueue({ VisibilityTimeout: "1" });
    await sendOne(url);
    const handle = await handleOf(url);
    sqs.pass(2);
    expectReplay(rec, { visibility_timeout_expired: answer(await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 2 }))) });
  });

  it("the same over the query protocol", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_change_message_visibility_after_visibility_timeout_expiration[sqs_query]");
    const url = await sqs.createQueue({ VisibilityTimeout: "1" });
    await sendOne(url);
    const handle = await handleOf(url);
    sqs.pass(2);
    expectReplay(rec, { visibility_timeout_expired: await queryCall(sqs.endpoint, "ChangeMessageVisibility", { QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 2 }) });
  });

  it("DeleteMessage with the latest handle after its visibility ran out deletes the message", async () => {
    const rec = recording("sqs", "TestSqsProvider::test_delete_after_visibility_timeout[sqs]");
    const url = await sqs.createQueue({ VisibilityTimeout: "1" });
    await sendOne(url, "foobar");
    const handle = await handleOf(url);
    sqs.pass(1);
    await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle }));
    expectReplay(rec, { delete_after_timeout_queue_empty: answer(await receive(url)) });
  });

  it("the same, counted: no message is left (test_remove_message_with_old_receipt_handle)", async () => {
    const url = await sqs.createQueue();
    await sendOne(url);
    const handle = await handleOf(url, 1);
    sqs.pass(2);
    await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle }));
    expect((await count(url))?.ApproximateNumberOfMessages).toBe("0");
  });

  it("an earlier receive's handle still changes the visibility of the message's current receive (no validation date)", async () => {
    // test_terminate_visibility_timeout_after_receive: marked validated, but carries no validation date.
    const url = await sqs.createQueue();
    await sendOne(url);
    const first = await handleOf(url, 0);
    expect(await handleOf(url, 3)).toBeDefined();
    await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: first, VisibilityTimeout: 0 }));
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1 }))).Messages).toHaveLength(1);
  });
});

describe("Handles of deleted messages and handles never issued (recorded on AWS)", () => {
  it("ChangeMessageVisibility on a deleted message: InvalidParameterValue naming the handle", async () => {
    // test_change_visibility_on_deleted_message_raises_invalid_parameter_value: its assertions.
    const url = await sqs.createQueue();
    await sendOne(url, "foo");
    const handle = await handleOf(url);
    await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 42 }));
    await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle }));
    const error = (await failure(sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 42 })))) as { Error: { Code: string; Message: string } };
    expect(error.Error).toMatchObject({
      Code: "InvalidParameterValue",
      Message: `Value ${handle} for parameter ReceiptHandle is invalid. Reason: Message does not exist or is not available for visibility timeout change.`,
    });
  });

  it("DeleteMessage with a made-up handle: ReceiptHandleIsInvalid", async () => {
    // test_delete_message_with_illegal_receipt_handle: its assertions.
    const url = await sqs.createQueue();
    const error = (await failure(sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: "garbage" })))) as { Error: { Code: string; Message: string } };
    expect(error.Error).toMatchObject({ Code: "ReceiptHandleIsInvalid", Message: 'The input receipt handle "garbage" is not a valid receipt handle.' });
  });

  it("ChangeMessageVisibility with a made-up handle: ReceiptHandleIsInvalid", async () => {
    // test_invalid_receipt_handle_should_return_error_message: its assertions.
    const url = await sqs.createQueue();
    const error = (await failure(sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: "INVALID", VisibilityTimeout: 60 })))) as { Error: { Code: string } };
    expect(error.Error.Code).toBe("ReceiptHandleIsInvalid");
  });

  it("DeleteMessage with a deleted message's handle succeeds, again and again", async () => {
    // test_delete_message_with_deleted_receipt_handle: its assertions.
    const url = await sqs.createQueue();
    await sendOne(url, "foo");
    const handle = await handleOf(url);
    for (let i = 0; i < 3; i += 1) await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: handle }));
  });
});

describe("Visibility timeouts (recorded on AWS)", () => {
  it("VisibilityTimeout 0 by ChangeMessageVisibility is not permanent: the next receive hides it again", async () => {
    // test_change_message_visibility_not_permanent and test_delete_message_deletes_with_change_visibility_timeout.
    const url = await sqs.createQueue();
    await sendOne(url);
    const handle = await handleOf(url);
    await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 0 }));
    const again = await receive(url);
    expect(again.Messages).toHaveLength(1);
    expect((await receive(url)).Messages ?? []).toEqual([]);
    await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: again.Messages?.[0]?.ReceiptHandle }));
    sqs.pass(31);
    expect((await receive(url)).Messages ?? []).toEqual([]);
  });

  it("a receive with VisibilityTimeout 0 leaves it visible; a later receive with the default hides it (new handle)", async () => {
    // test_receive_terminate_visibility_timeout and test_receive_after_visibility_timeout.
    const url = await sqs.createQueue({ VisibilityTimeout: "1" });
    await sendOne(url, "foobar");
    const zero = await handleOf(url, 0);
    const next = await handleOf(url);
    expect(next).not.toBe(zero);
    expect((await receive(url)).Messages ?? []).toEqual([]);
    sqs.pass(1);
    const after = await handleOf(url);
    expect(after).toBeDefined();
    expect(after).not.toBe(next);
  });

  it("extending the visibility keeps the message hidden past the queue's timeout", async () => {
    // test_extend_message_visibility_timeout_set_in_queue.
    const url = await sqs.createQueue({ VisibilityTimeout: "2" });
    await sendOne(url);
    const handle = await handleOf(url);
    for (let i = 0; i < 4; i += 1) {
      sqs.pass(1);
      await sqs.client.send(new ChangeMessageVisibilityCommand({ QueueUrl: url, ReceiptHandle: handle, VisibilityTimeout: 2 }));
      expect((await receive(url)).Messages ?? []).toEqual([]);
    }
    sqs.pass(2);
    expect((await receive(url)).Messages?.map((m) => m.Body)).toEqual(["test"]);
  });

  it("a receive's VisibilityTimeout replaces the queue's (test_receive_message_with_visibility_timeout_updates_timeout)", async () => {
    const url = await sqs.createQueue();
    await sendOne(url);
    expect(await handleOf(url, 0)).toBeDefined();
    expect(await handleOf(url, 3)).toBeDefined();
    expect((await receive(url)).Messages ?? []).toEqual([]);
  });

  it("counts: one in flight, then all visible after the timeout (test_approximate_number_of_messages_not_visible)", async () => {
    const url = await sqs.createQueue({ VisibilityTimeout: "5" });
    for (let i = 1; i <= 6; i += 1) await sendOne(url, `message-${i}`);
    await receive(url);
    expect(await count(url)).toEqual({ ApproximateNumberOfMessages: "5", ApproximateNumberOfMessagesNotVisible: "1", ApproximateNumberOfMessagesDelayed: "0" });
    sqs.pass(5);
    expect(await count(url)).toEqual({ ApproximateNumberOfMessages: "6", ApproximateNumberOfMessagesNotVisible: "0", ApproximateNumberOfMessagesDelayed: "0" });
  });
});
