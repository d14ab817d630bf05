import { GetQueueAttributesCommand, PurgeQueueCommand, SendMessageCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import { ProducerKind } from "@effectively-once/pipeline";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { observe, publishBodies } from "../../src/harness";
import { startLocalCloud, type LocalCloud } from "../../src";

/**
 * A stack that declares producers (an SNS topic of another account, a role of a third) and an operations account
 * that reads the DLQ runs on the local cloud: the queues' one policy each carries those Allow statements after the
 * construct's Deny statements, a message is applied, and the Deny statements still refuse purges and native moves.
 */
const TOPIC = "arn:aws:sns:us-east-1:111122223333:orders";
const PARTNER = "arn:aws:iam::777788889999:role/partner-producer";

describe("Local cloud: a stack with declared producers and a DLQ grant", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  const url = (output: "queue_url" | "dlq_url") => String(cloud.outputs[output]);
  const policyOf = async (output: "queue_url" | "dlq_url") =>
    JSON.parse((await cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url(output), AttributeNames: ["Policy"] }))).Attributes!.Policy!) as { Statement: Record<string, unknown>[] };
  const arnOf = async (output: "queue_url" | "dlq_url") => (await cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: url(output), AttributeNames: ["QueueArn"] }))).Attributes!.QueueArn!;

  beforeAll(async () => {
    stack = synthStack({
      queueAccess: {
        producers: [{ kind: ProducerKind.SnsTopic, arn: TOPIC }, { kind: ProducerKind.AwsPrincipal, principal: PARTNER }],
        deadLetterQueueStatements: [{ Sid: "OpsReadsDlq", Effect: "Allow", Principal: { AWS: ["arn:aws:iam::999988887777:root"] }, Action: ["sqs:ReceiveMessage"] }],
      },
    });
    cloud = await startLocalCloud({ stackFile: `${stack.stackDir}/cdk.tf.json`, retryVisibilityTimeoutSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("keeps the producers' statements in the source queue's policy, with the queue's local ARN, after the purge Deny", async () => {
    const arn = await arnOf("queue_url");
    const statements = (await policyOf("queue_url")).Statement;
    expect(statements.map((s) => s.Sid)).toEqual(["RefusePurge", "AllowSnsTopics1", "AllowProducerPrincipals"]);
    expect(statements[1]).toEqual({
      Sid: "AllowSnsTopics1",
      Effect: "Allow",
      Principal: { Service: "sns.amazonaws.com" },
      Action: "sqs:SendMessage",
      Resource: arn,
      Condition: { ArnEquals: { "aws:SourceArn": TOPIC }, StringEquals: { "aws:SourceAccount": "111122223333" } },
    });
    expect(statements[2]).toMatchObject({ Principal: { AWS: PARTNER }, Action: "sqs:SendMessage", Resource: arn });
    expect((await policyOf("dlq_url")).Statement.map((s) => s.Sid)).toEqual(["RefuseNativeMessageMoves", "RefusePurge", "OpsReadsDlq"]);
  });

  it("applies a message sent to the queue, and still refuses purging either queue and a native move from the DLQ", async () => {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [{ tenantId: "shared", orderId: "o-1", amount: 100, currency: "EUR" }]);
    await cloud.drain({ timeoutMs: 20_000 });
    const { verification, dlq } = await observe(target, sent);
    expect([verification.lost, verification.doubleApplied, dlq]).toEqual([[], [], []]);
    expect(cloud.stats().outcomes).toMatchObject({ processed: 1 });

    for (const output of ["queue_url", "dlq_url"] as const) {
      await expect(cloud.clients.sqs.send(new PurgeQueueCommand({ QueueUrl: url(output) }))).rejects.toMatchObject({ name: "AccessDenied" });
    }
    await expect(cloud.clients.sqs.send(new StartMessageMoveTaskCommand({ SourceArn: await arnOf("dlq_url") }))).rejects.toMatchObject({ name: "AccessDenied" });
    // A producer's send is not refused by anything the policy adds.
    await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: url("queue_url"), MessageBody: JSON.stringify({ tenantId: "shared", orderId: "o-2", amount: 5, currency: "EUR" }) }));
  }, 60_000);
});
