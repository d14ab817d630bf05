import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import type { SqsRecord, SqsRecordMessageAttribute } from "./types";

/** The order Pipes (and Lambda) list the usual system attributes in; others follow in the order SQS gave them. */
const ATTRIBUTE_ORDER = ["ApproximateReceiveCount", "SentTimestamp", "SenderId", "ApproximateFirstReceiveTimestamp"];

/**
 * Builds the record Pipes delivers for one received SQS message: lower-camel-case keys, body as the raw
 * string, attribute values base64 for binaries, plus the poller's `eventSource`, `eventSourceARN`, `awsRegion`.
 */
export function toSqsRecord(message: Message, queueArn: string, region: string): SqsRecord {
  const record: SqsRecord = {
    messageId: message.MessageId ?? "",
    receiptHandle: message.ReceiptHandle ?? "",
    body: message.Body ?? "",
    attributes: orderAttributes(message.Attributes ?? {}),
    messageAttributes: mapMessageAttributes(message.MessageAttributes ?? {}),
    md5OfBody: message.MD5OfBody ?? "",
    eventSource: "aws:sqs",
    eventSourceARN: queueArn,
    awsRegion: region,
  };
  if (message.MD5OfMessageAttributes) {
    // Keep the key order of Lambda-style records: md5OfMessageAttributes follows md5OfBody.
    const { eventSource, eventSourceARN, awsRegion, ...head } = record;
    return { ...head, md5OfMessageAttributes: message.MD5OfMessageAttributes, eventSource, eventSourceARN, awsRegion };
  }
  return record;
}

function orderAttributes(attributes: Record<string, string>): Record<string, string> {
  const ordered: Record<string, string> = {};
  for (const key of ATTRIBUTE_ORDER) if (key in attributes) ordered[key] = attributes[key];
  for (const [key, value] of Object.entries(attributes)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

/** Names are the producer's text (`__proto__` is a valid one): built from entries, never by assignment. */
function mapMessageAttributes(attributes: Record<string, MessageAttributeValue>): Record<string, SqsRecordMessageAttribute> {
  return Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => {
      const attribute: Partial<SqsRecordMessageAttribute> = {};
      if (value.StringValue !== undefined) attribute.stringValue = value.StringValue;
      if (value.BinaryValue !== undefined) attribute.binaryValue = toBase64(value.BinaryValue);
      attribute.stringListValues = value.StringListValues ?? [];
      attribute.binaryListValues = (value.BinaryListValues ?? []).map(toBase64);
      attribute.dataType = value.DataType ?? "String";
      return [name, attribute as SqsRecordMessageAttribute];
    }),
  );
}

function toBase64(bytes: Uint8Array | string): string {
  return typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("base64");
}
