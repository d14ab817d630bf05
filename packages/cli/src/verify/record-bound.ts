/**
 * The worst case the synth assumes for one record of the pipe's batch, which the record probe holds AWS's answer
 * to: each UTF-8 byte of the message (body and attributes, as SQS counts its size) takes at most
 * `RECORD_BYTES_PER_MESSAGE_BYTE` bytes in the record's JSON, plus `RECORD_ENVELOPE_BYTES` of ids, receipt handle and
 * system attributes at their largest (packages/contract/src/limits.ts states both, and why).
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { RECORD_BYTES_PER_MESSAGE_BYTE, RECORD_ENVELOPE_BYTES } from "@effectively-once/contract";

/** A message's size as SQS counts it: body, and each attribute's name, data type and value. */
export function sqsMessageBytes(body: string, attributes: Readonly<Record<string, MessageAttributeValue>> = {}): number {
  let bytes = Buffer.byteLength(body);
  for (const [name, value] of Object.entries(attributes)) {
    const data = value.StringValue !== undefined ? Buffer.byteLength(value.StringValue) : (value.BinaryValue?.length ?? 0);
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value.DataType ?? "") + data;
  }
  return bytes;
}

/** The most bytes the synth allows one record of a message of `messageBytes` to take. */
export function worstRecordBytes(messageBytes: number): number {
  return RECORD_BYTES_PER_MESSAGE_BYTE * messageBytes + RECORD_ENVELOPE_BYTES;
}
