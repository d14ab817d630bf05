import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { DescribeTableCommand } from "@aws-sdk/client-dynamodb";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies } from "@effectively-once/local-cloud/harness";
import { resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";

// A stack under a customer managed key still runs offline: the local cloud has no KMS, so it provisions the queues
// with the key's attributes (SQS stores them as AWS does) and leaves the rest of the encryption settings aside
// (packages/local-cloud/src/SUPPORTED.md), and the message path is the same.
describe("End to end: a stack with a customer managed KMS key (encryption.kmsKeyArn)", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  beforeAll(async () => {
    stack = synthStack({ encryption: { kmsKeyArn: KEY } });
    cloud = await startLocalCloud({ stackFile: `${stack.stackDir}/cdk.tf.json`, retryVisibilityTimeoutSeconds: 1 });
  }, 60_000);
  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  it("synthesizes the key into every store the local cloud provisions", () => {
    expect(resourcesOfType(stack.json, "aws_sqs_queue").map(([, q]) => q.kms_master_key_id)).toEqual([KEY, KEY]);
    expect(resourcesOfType(stack.json, "aws_dynamodb_table").map(([, t]) => (t.server_side_encryption as { kms_key_arn?: string }).kms_key_arn)).toEqual([KEY, KEY, KEY]);
  });

  it("provisions the queues with the key and the tables, and applies a message once and its resend as a duplicate", async () => {
    const queue = await cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: cloud.outputs.queue_url as string, AttributeNames: ["KmsMasterKeyId", "KmsDataKeyReusePeriodSeconds"] }));
    expect(queue.Attributes).toMatchObject({ KmsMasterKeyId: KEY, KmsDataKeyReusePeriodSeconds: "300" });
    const ledger = await cloud.clients.dynamodb.send(new DescribeTableCommand({ TableName: cloud.outputs.ledger_table_name as string }));
    expect(ledger.Table?.TableStatus).toBe("ACTIVE");

    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [{ tenantId: "kms", orderId: "o-1", amount: 1250, currency: "EUR" }]);
    await cloud.drain({ timeoutMs: 20_000 });
    sent.push(...(await publishBodies(target, [{ tenantId: "kms", orderId: "o-1", amount: 1250, currency: "EUR" }])));
    await cloud.drain({ timeoutMs: 20_000 });
    const { effects, dlq, verification } = await observe(target, sent);
    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect(dlq).toEqual([]);
    expect(effects.size).toBe(1);
    expect(cloud.stats().outcomes).toMatchObject({ processed: 1, duplicate: 1 });
  }, 60_000);
});
