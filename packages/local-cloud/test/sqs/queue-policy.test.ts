import {
  PurgeQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SetQueueAttributesCommand,
  StartMessageMoveTaskCommand,
} from "@aws-sdk/client-sqs";
import { useLocalSqs } from "../support/local-sqs";

// A queue's Policy attribute: its explicit Deny statements for everyone are honoured for the actions they name, with
// AWS's AccessDenied (HTTP 403); statements the local SQS cannot evaluate are refused when the policy is set.
const sqs = useLocalSqs("policy");

const deny = (Action: string | string[], Resource: string | undefined, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ Version: "2012-10-17", Statement: [{ Sid: "NoRedrive", Effect: "Deny", Principal: "*", Action, ...(Resource ? { Resource } : {}), ...extra }] });

async function rejection(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    return error as Error & { $metadata: { httpStatusCode: number }; Code?: string };
  }
  throw new Error("the call succeeded");
}

describe("Queue policy: explicit Deny", () => {
  it("refuses the denied action with AccessDenied, HTTP 403, naming the permission and the queue; other actions run", async () => {
    const { url, arn } = await sqs.newQueue();
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: deny("sqs:PurgeQueue", arn) } }));

    const error = await rejection(sqs.client.send(new PurgeQueueCommand({ QueueUrl: url })));
    await sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "still allowed" }));

    expect(error.name).toBe("AccessDenied");
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(error.message).toBe(`User: local is not authorized to perform: sqs:purgequeue on resource: ${arn} with an explicit deny in a resource-based policy`);
    expect((await sqs.client.send(new ReceiveMessageCommand({ QueueUrl: url }))).Messages?.map((m) => m.Body)).toEqual(["still allowed"]);
  });

  it("matches actions by wildcard in any case, resources by wildcard, and batch actions as their single action", async () => {
    const { url } = await sqs.newQueue();
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: deny(["SQS:send*"], "arn:aws:sqs:*:000000000000:policy-*") } }));
    await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: url, MessageBody: "x" }))).rejects.toMatchObject({ name: "AccessDenied" });
    await expect(sqs.client.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: [{ Id: "a", MessageBody: "x" }] }))).rejects.toMatchObject({ name: "AccessDenied" });
  });

  it("a Deny for another queue's ARN does not apply; removing the policy lifts the Deny", async () => {
    const other = await sqs.newQueue();
    const { url } = await sqs.newQueue({ Policy: deny("sqs:*", other.arn) });
    await sqs.client.send(new PurgeQueueCommand({ QueueUrl: url }));
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: other.url, Attributes: { Policy: deny("sqs:SendMessage", undefined) } }));
    await expect(sqs.client.send(new SendMessageCommand({ QueueUrl: other.url, MessageBody: "x" }))).rejects.toMatchObject({ name: "AccessDenied" });
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: other.url, Attributes: { Policy: "" } }));
    await sqs.client.send(new SendMessageCommand({ QueueUrl: other.url, MessageBody: "x" }));
  });

  it("refuses StartMessageMoveTask on a DLQ that denies it (the console's redrive), as AWS would", async () => {
    const dlq = await sqs.newQueue();
    await sqs.newQueue({ RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlq.arn, maxReceiveCount: 5 }) });
    await sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: dlq.url, Attributes: { Policy: deny("sqs:StartMessageMoveTask", dlq.arn) } }));
    const error = await rejection(sqs.client.send(new StartMessageMoveTaskCommand({ SourceArn: dlq.arn })));
    expect([error.name, error.$metadata.httpStatusCode]).toEqual(["AccessDenied", 403]);
  });

  it("Allow statements are not evaluated (no IAM locally): everything not denied is allowed", async () => {
    const allowOnly = JSON.stringify({ Statement: [{ Effect: "Allow", Principal: { AWS: "arn:aws:iam::000000000000:role/producer" }, Action: "sqs:SendMessage", Condition: { Bool: { "aws:SecureTransport": "true" } } }] });
    const { url } = await sqs.newQueue({ Policy: allowOnly });
    await sqs.client.send(new PurgeQueueCommand({ QueueUrl: url }));
  });
});

describe("Queue policy: Deny statements the local SQS cannot evaluate are refused when set", () => {
  it.each([
    ["a Condition", { Condition: { ArnNotEquals: { "aws:PrincipalArn": "arn:aws:iam::000000000000:role/ops" } } }, "Condition"],
    ["NotAction", { NotAction: "sqs:ReceiveMessage" }, "NotAction"],
    ["a named Principal", { Principal: { AWS: "arn:aws:iam::000000000000:role/ops" } }, "Principal"],
  ])("%s: InvalidAttributeValue naming the statement, the element and the fix", async (_label, extra, element) => {
    const { url, arn } = await sqs.newQueue();
    const error = await rejection(sqs.client.send(new SetQueueAttributesCommand({ QueueUrl: url, Attributes: { Policy: deny("sqs:PurgeQueue", arn, extra) } })));
    expect(error.name).toBe("InvalidAttributeValue");
    expect(error.message).toContain(`Deny statement "NoRedrive" uses ${element}`);
    expect(error.message).toContain('Deny for everyone without it');
  });

  it("at CreateQueue too, and a policy that is not JSON", async () => {
    await expect(sqs.newQueue({ Policy: "{not json" })).rejects.toMatchObject({ name: "InvalidAttributeValue" });
  });
});
