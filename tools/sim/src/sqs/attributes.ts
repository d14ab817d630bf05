/**
 * Message attributes in the simulation: the scenario's pairs and the SDK's map, and SQS's rules applied to pairs (the
 * rules themselves are the local cloud's, one copy for both SQS implementations: `@effectively-once/local-cloud/sqs-rules`,
 * packages/local-cloud/src/sqs/rules/message-attributes.cjs). Names are outside text, so attribute maps are built with
 * `Object.fromEntries` (an own `__proto__` entry stays an entry) and read as pairs.
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { attributeBytes as bytesOf, checkMessageAttributes } from "@effectively-once/local-cloud/sqs-rules";
import type { MessageAttribute } from "../scenario/shape";

export { INVALID_SQS_CHARACTER as SQS_INVALID_CHARACTER, md5OfMessageAttributes as md5OfAttributes } from "@effectively-once/local-cloud/sqs-rules";

/** The first rule the attributes break (SQS answers InvalidParameterValue), or undefined. */
export function attributeProblem(attributes: readonly MessageAttribute[]): string | undefined {
  return checkMessageAttributes(toSdkAttributes(attributes))?.message;
}

/** What the attributes add to a message's size: names, types and values (UTF-8). */
export function attributeBytes(attributes: readonly MessageAttribute[]): number {
  return bytesOf(toSdkAttributes(attributes));
}

/** The SDK's shape, `{name: {DataType, StringValue}}` (strings only: the generator draws no binary values). */
export function toSdkAttributes(attributes: readonly MessageAttribute[]): Record<string, MessageAttributeValue> {
  return Object.fromEntries(attributes.map((a) => [a.name, { DataType: a.dataType, StringValue: a.value }]));
}

/** Pairs from the SDK's shape (a binary value as base64 text). */
export function fromSdkAttributes(attributes: Record<string, MessageAttributeValue> | undefined): MessageAttribute[] {
  return Object.entries(attributes ?? {}).map(([name, v]) => ({
    name,
    dataType: v.DataType ?? "",
    value: v.StringValue ?? (v.BinaryValue === undefined ? "" : Buffer.from(v.BinaryValue).toString("base64")),
  }));
}
