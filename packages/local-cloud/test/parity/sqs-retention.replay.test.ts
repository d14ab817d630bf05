// Replays of LocalStack's AWS-validated SQS retention tests (Apache-2.0; tests/aws/services/sqs/test_sqs.py:
// test_message_retention, test_message_retention_with_inflight; assertions only, no snapshot, no validation date).
// On AWS they wait 60 + 5 seconds; here the local cloud's clock moves instead.
import { DeleteMessageCommand, ReceiveMessageCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { useLocalSqs } from "../support/local-sqs";

const sqs = useLocalSqs("replay");
const RETENTION = 60;
const WAIT = 5;

async function sendTwo(url: string): Promise<void> {
  for (const body of ["foobar1", "foobar2"]) await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body }));
}

describe("MessageRetentionPeriod (recorded on AWS)", () => {
  it("messages older than the retention period are gone", async () => {
    const url = await sqs.createQueue({ MessageRetentionPeriod: String(RETENTION) });
    await sendTwo(url);
    sqs.pass(RETENTION + WAIT);
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? []).toEqual([]);
  });

  it("an in-flight message expires too, and deleting it afterwards still succeeds", async () => {
    const url = await sqs.createQueue({ MessageRetentionPeriod: String(RETENTION), VisibilityTimeout: String(RETENTION) });
    await sendTwo(url);
    sqs.pass(WAIT);
    const { Messages = [] } = await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 1 }));
    expect(Messages.map((m) => m.Body)).toEqual(["foobar1"]);
    sqs.pass(RETENTION + 1);
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? []).toEqual([]);
    sqs.pass(WAIT * 1.5);
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages ?? []).toEqual([]);
    await sqs.client.send(new DeleteMessageCommand({ QueueUrl: url, ReceiptHandle: Messages[0]?.ReceiptHandle }));
  });
});
