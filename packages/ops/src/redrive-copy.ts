import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import { compileFilterCriteria } from "@effectively-once/contract/pipe-filter";
import { toSqsRecord } from "@effectively-once/contract/pipe-filter";
import { DlqAttribute } from "@effectively-once/contract";
import { TargetError } from "./errors";
import { type DlqEntry, type OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";
import { DlqReason } from "@effectively-once/contract";

type Attributes = Record<string, MessageAttributeValue>;

/**
 * What the copy of a DLQ message sent back to the source queue carries: the producer's own attributes, and
 * `firstSentTimestamp` (the first send), so the next redrive still knows the real age. A quarantined message holds
 * the quarantine's attributes (reason, detail…), which stay behind, and the producer's packed in
 * `producerAttributes` (as the pipe delivered them), which are restored; a message the queue's redrive moved still
 * carries its producer's attributes as they were. Built with null-prototype objects: attribute names are the
 * producer's text (`__proto__` is a legal name).
 */
export function copyAttributes(entry: DlqEntry, message: Message, nowMs: number): Attributes {
  const own = message.MessageAttributes ?? {};
  const copy: Attributes = Object.create(null);
  if (entry.reason === DlqReason.RetriesExhausted) {
    for (const [name, value] of Object.entries(own)) copy[name] = value;
  } else {
    for (const [name, value] of packedAttributes(own[DlqAttribute.ProducerAttributes]?.StringValue)) copy[name] = value;
  }
  copy[DlqAttribute.FirstSentTimestamp] = { DataType: "Number", StringValue: String(entry.firstSentAt ?? nowMs) };
  return copy;
}

/** The producer's attributes a quarantine packed, in the SendMessage form (record form: lower-camel, base64 binaries). */
function packedAttributes(text: string | undefined): [string, MessageAttributeValue][] {
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, Record<string, unknown>>).flatMap(([name, a]): [string, MessageAttributeValue][] => {
    if (a === null || typeof a !== "object" || typeof a.dataType !== "string") return [];
    if (typeof a.stringValue === "string") return [[name, { DataType: a.dataType, StringValue: a.stringValue }]];
    if (typeof a.binaryValue === "string") return [[name, { DataType: a.dataType, BinaryValue: Buffer.from(a.binaryValue, "base64") }]];
    return [];
  });
}

/**
 * Whether the stack's pipe would hand the copy to the state machine: a copy its filter patterns drop is deleted
 * by the pipe unprocessed, a silent loss. Judged by the local pipe's own filter (AWS's event-pattern rules) on the
 * record the pipe would build. A stack without the `filter_patterns` output, or with none, keeps every copy.
 */
export function pipeKeeps(ctx: Pick<OpsContext, "outputs" | "targetLabel">): (body: string, attributes: Attributes) => boolean {
  const raw = ctx.outputs[OutputName.FilterPatterns];
  if (raw === undefined || raw === "" || raw === "[]") return () => true;
  let patterns: unknown;
  try {
    patterns = typeof raw === "string" ? JSON.parse(raw) : raw;
  } catch {
    patterns = undefined;
  }
  if (!Array.isArray(patterns)) throw new TargetError(`${ctx.targetLabel} has an unusable "${OutputName.FilterPatterns}" output (a JSON list of event patterns expected): deploy the stack again`);
  const keeps = compileFilterCriteria({ Filters: patterns.map((p) => ({ Pattern: JSON.stringify(p) })) });
  const text = (name: string) => (typeof ctx.outputs[name] === "string" ? (ctx.outputs[name] as string) : "");
  const [queueArn, region] = [text(OutputName.QueueArn), text(OutputName.Region)];
  return (body, attributes) => keeps(toSqsRecord({ MessageId: "copy", ReceiptHandle: "copy", Body: body, MessageAttributes: attributes, Attributes: {} }, queueArn, region));
}
