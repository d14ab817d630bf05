/**
 * Every message the source queue accepts within the documented limit (body and at most 9 attributes of the
 * producer's own ≤ maxMessageBytes, as SQS counts them) can be redriven: `pipeline-ops dlq redrive` adds
 * `firstSentTimestamp` (37 bytes as SQS counts it) and one attribute, and the construct sizes the source queue with
 * that room. The queue here is sized by the synthesized stack itself (the real construct); SQS's own size rule is
 * the simulation's (tools/sim/src/sqs/service.ts). Before the room, a message exactly at the limit was refused by the source
 * queue even with --force. A larger copy is refused by the redrive, with the reason and the other route (--direct).
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { redriveDlq } from "@effectively-once/ops";
import { sqsMessageBytes } from "@effectively-once/ops";
import type { OpsContext } from "@effectively-once/ops";
import { OutputName } from "@effectively-once/contract";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { SimSqs } from "../../src/sqs/service";
import { VirtualClock } from "../../src/clock/virtual-clock";
import { resourceNamed } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

const QUEUE = { url: "http://sqs.test/000000000000/q", arn: "arn:aws:sqs:us-east-1:000000000000:q" };
const DLQ = { url: "http://sqs.test/000000000000/dlq", arn: "arn:aws:sqs:us-east-1:000000000000:dlq" };

/** The source queue's max_message_size as the construct synthesizes it. */
function synthesizedQueueMax(): number {
  const stack = synthStack();
  try {
    return resourceNamed(stack.json, "aws_sqs_queue", "test-queue").max_message_size as number;
  } finally {
    stack.cleanup();
  }
}

/** A producer's message of exactly `bytes` as SQS counts them: Cyrillic and emoji, with 9 attributes of its own. */
function messageOf(bytes: number, attributes = 9): { body: string; attributes: Record<string, MessageAttributeValue> } {
  const own: Record<string, MessageAttributeValue> = Object.create(null);
  for (let i = 0; i < attributes; i++) own[`attr${i}`] = { DataType: "String", StringValue: "значение😀" };
  const head = '{"tenantId":"t","orderId":"o","note":"';
  let body = `${head}`;
  while (sqsMessageBytes(`${body}ж"}`, own) <= bytes) body += "ж";
  while (sqsMessageBytes(`${body}"}`, own) < bytes) body += "x";
  body += '"}';
  expect(sqsMessageBytes(body, own)).toBe(bytes);
  return { body, attributes: own };
}

async function redriveOne(message: { body: string; attributes: Record<string, MessageAttributeValue> }, queueMax: number) {
  const clock = new VirtualClock(Date.UTC(2026, 0, 1));
  const sqs = new SimSqs(clock);
  sqs.addQueue({ url: DLQ.url, arn: DLQ.arn, visibilityTimeoutSeconds: 30, retentionSeconds: 14 * 86400, maxMessageBytes: 262_144 });
  sqs.addQueue({ url: QUEUE.url, arn: QUEUE.arn, visibilityTimeoutSeconds: 30, retentionSeconds: 4 * 86400, maxMessageBytes: queueMax });
  // A retries-exhausted copy: the queue's redrive moved it with the producer's own attributes.
  await sqs.clientAs("AROAPRODUCER:p").send(new SendMessageCommand({ QueueUrl: DLQ.url, MessageBody: message.body, MessageAttributes: message.attributes }));
  const ctx: OpsContext = {
    sqs: sqs.clientAs("AIDAOPERATOR"),
    get dynamodb(): never {
      throw new Error("no table is read for a message without a key");
    },
    outputs: { [OutputName.QueueUrl]: QUEUE.url, [OutputName.DlqUrl]: DLQ.url, [OutputName.RetentionSeconds]: 14 * 86400, [OutputName.MessageRetentionSeconds]: 4 * 86400, [OutputName.Operation]: "charge" },
    targetLabel: "test",
    now: () => clock.now(),
  };
  const result = await redriveDlq(ctx, { force: true });
  return { result, source: sqs.messages(QUEUE.url) };
}

describe("pipeline-ops dlq redrive: sizes", () => {
  const queueMax = synthesizedQueueMax();

  it("redrives a message exactly at maxMessageBytes (multi-byte, 9 attributes of its own) into the synthesized source queue", async () => {
    const { result, source } = await redriveOne(messageOf(DEFAULTS.maxMessageBytes), queueMax);
    expect(result.failed).toEqual([]);
    expect(result.moved).toHaveLength(1);
    expect(source).toHaveLength(1);
  });

  it("refuses, even with --force, a copy over the source queue's maximum, saying so and naming --direct; nothing is sent or deleted", async () => {
    const { result, source } = await redriveOne(messageOf(queueMax), queueMax);
    expect(result.moved).toEqual([]);
    expect(result.failed).toEqual([]);
    expect(result.unsafe).toEqual([expect.objectContaining({ why: expect.stringMatching(new RegExp(`over the source queue's maximum of ${queueMax} today \\(maxMessageBytes = ${DEFAULTS.maxMessageBytes} plus .*pass --direct`)) })]);
    expect(source).toEqual([]);
  });

  it("refuses a copy whose producer set 10 attributes (SQS allows 10, the redrive needs one)", async () => {
    const { result } = await redriveOne(messageOf(2000, 10), queueMax);
    expect(result.moved).toEqual([]);
    expect(result.unsafe).toEqual([expect.objectContaining({ why: expect.stringMatching(/11 message attributes.*more than the 9 the pipeline documents/) })]);
  });
});
