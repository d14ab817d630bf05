import { GetQueueAttributesCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { MAX_PRODUCER_ATTRIBUTES, REDRIVE_ATTRIBUTE_BYTES, SQS_MAX_ATTRIBUTES } from "@effectively-once/contract";
import type { OpsContext } from "./types";

type Attributes = Record<string, MessageAttributeValue>;

/** A message's size as SQS counts it: the body's UTF-8 bytes, and each attribute's name, data type and value. */
export function sqsMessageBytes(body: string, attributes: Attributes): number {
  let bytes = Buffer.byteLength(body);
  for (const [name, a] of Object.entries(attributes)) {
    bytes += Buffer.byteLength(name) + Buffer.byteLength(a.DataType ?? "");
    if (a.StringValue !== undefined) bytes += Buffer.byteLength(a.StringValue);
    if (a.BinaryValue !== undefined) bytes += typeof a.BinaryValue === "string" ? Buffer.byteLength(a.BinaryValue) : a.BinaryValue.byteLength;
  }
  return bytes;
}

/** The source queue's `MaximumMessageSize`; undefined when the queue does not say (the check is then SQS's own). */
export async function sourceQueueMaxBytes(ctx: Pick<OpsContext, "sqs">, queueUrl: string): Promise<number | undefined> {
  try {
    const { Attributes } = await ctx.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["MaximumMessageSize"] }));
    const max = Number(Attributes?.MaximumMessageSize);
    return Number.isInteger(max) && max > 0 ? max : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the source queue cannot take a redrive's copy (body, the producer's attributes and `firstSentTimestamp`), or
 * undefined. The construct sizes the queue so that every message within today's limit fits (`maxMessageBytes` and 9
 * attributes of the producer's own, plus the redrive's room). A larger copy was still accepted by some queue once:
 * an earlier release's larger `maxMessageBytes` (0.2's default was 120 KiB), a queue shrunk in place, or 10
 * attributes SQS allows. --force cannot help it; `--direct` delivers it to the state machine instead.
 */
export function copySizeProblem(body: string, copy: Attributes, queueMax: number | undefined): string | undefined {
  const count = Object.keys(copy).length;
  if (count > SQS_MAX_ATTRIBUTES) {
    return `the copy would carry ${count} message attributes with the redrive's firstSentTimestamp, and SQS allows ${SQS_MAX_ATTRIBUTES}: the producer set more than the ${MAX_PRODUCER_ATTRIBUTES} the pipeline documents, so the source queue cannot take it; pass --direct to deliver it to the state machine itself`;
  }
  const bytes = sqsMessageBytes(body, copy);
  if (queueMax === undefined || bytes <= queueMax) return undefined;
  return (
    `the copy is ${bytes} bytes as SQS counts them (body and attributes, with the redrive's firstSentTimestamp), over the source queue's maximum of ${queueMax} today ` +
    `(maxMessageBytes = ${queueMax - REDRIVE_ATTRIBUTE_BYTES} plus the redrive's room), so the queue refuses it, and would refuse a resend by hand too; ` +
    "a queue accepted it once (an earlier release's larger limit, or a queue shrunk in place): pass --direct to deliver it to the state machine itself"
  );
}
