// The SQS conformance suite, part 4: SQS's redrive-policy move path, one set of cases run against both the
// simulation's SQS model and the local SQS (docs/guarantees.md, "paths back from the DLQ"). AWS's rules (SQS API
// reference, SetQueueAttributes and StartMessageMoveTask; Developer Guide, "configure dead-letter queue redrive"): a
// redrive policy may name only a queue whose RedriveAllowPolicy lets it (allowAll by default, denyAll, byQueue); any
// queue may have a redrive policy, a DLQ too; a move task's source is any queue that is some queue's DLQ, and what it
// moves is a new message with a new enqueue time.
import { SetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { IMPLEMENTATIONS } from "./drivers";
import { failure, receive, send, using } from "./helpers";

const redriveTo = (arn: string, maxReceiveCount = 1) => ({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: arn, maxReceiveCount }) });

describe.each(IMPLEMENTATIONS.map((make) => [make().name, make] as const))("SQS conformance suite, redrive paths: %s", (_name, make) => {
  const sqs = using(make);

  it("denyAll: no queue may name it as its DLQ; byQueue: only the listed ones; absent: any", async () => {
    const client = sqs.clientAs();
    const closed = await sqs.createQueue({ redriveAllowPolicy: JSON.stringify({ redrivePermission: "denyAll" }) });
    const listed = await sqs.createQueue();
    const stranger = await sqs.createQueue();
    const byQueue = await sqs.createQueue({ redriveAllowPolicy: JSON.stringify({ redrivePermission: "byQueue", sourceQueueArns: [listed.arn] }) });
    const open = await sqs.createQueue();
    const set = (queue: { url: string }, attributes: Record<string, string>) => client.send(new SetQueueAttributesCommand({ QueueUrl: queue.url, Attributes: attributes }));
    expect((await failure(set(stranger, redriveTo(closed.arn)))).name).toBe("InvalidParameterValue");
    expect((await failure(set(stranger, redriveTo(byQueue.arn)))).name).toBe("InvalidParameterValue");
    await expect(set(listed, redriveTo(byQueue.arn))).resolves.toBeDefined();
    await expect(set(stranger, redriveTo(open.arn))).resolves.toBeDefined();
  });

  it("a DLQ's own redrive policy moves a copy on to a temporary queue; a move task from there reaches any queue, a new message with its attributes", async () => {
    // Arrange: a source queue closed to redrive policies, its DLQ holding a quarantined copy.
    const client = sqs.clientAs();
    const dlq = await sqs.createQueue();
    const source = await sqs.createQueue({ deadLetter: { queue: dlq, maxReceiveCount: 5 }, redriveAllowPolicy: JSON.stringify({ redrivePermission: "denyAll" }) });
    const temporary = await sqs.createQueue();
    await send(client, dlq, "copy", { reason: { DataType: "String", StringValue: "rejected" } });
    const [original] = await receive(client, dlq, { visibilityTimeout: 0 });
    // Act: the DLQ cannot name the source queue; it can name the temporary queue, and the next receive moves the copy.
    expect((await failure(client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: redriveTo(source.arn) })))).name).toBe("InvalidParameterValue");
    await client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: redriveTo(temporary.arn) }));
    expect(await receive(client, dlq, { visibilityTimeout: 0 })).toEqual([]);
    sqs.pass(60);
    await sqs.moveMessages?.(temporary, source);
    // Assert
    const [moved] = await receive(client, source);
    expect(moved.Body).toBe("copy");
    expect(moved.MessageId).not.toBe(original.MessageId);
    expect(moved.MessageAttributes?.reason?.StringValue).toBe("rejected");
    expect(Number(moved.Attributes?.SentTimestamp)).toBeGreaterThan(Number(original.Attributes?.SentTimestamp));
  });
});
