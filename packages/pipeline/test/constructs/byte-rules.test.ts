/**
 * Sizes in bytes: whatever batchSize × maxMessageBytes the synth accepts, a whole batch of the largest messages the
 * source queue takes, in any script, fits the 262,144 bytes of UTF-8 StartSyncExecution accepts. The batches are
 * built as the pipe builds them (the local pipe's record) and serialized twice: as JavaScript does, and by the stated
 * worst case (every non-ASCII character as \u escapes). The old rule (one record within 262,144 characters) let
 * batchSize 10 × 120 KiB through: ten messages of Cyrillic text are 1.2 MB.
 */
import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import { type IdempotentPipelineProps } from "../../src/constructs/props";
import { toSqsRecord } from "@effectively-once/contract/pipe-filter";
import {
  largestMaxMessageBytes,
  MAX_PRODUCER_ATTRIBUTES,
  REDRIVE_ATTRIBUTE_BYTES,
  sourceQueueMaxBytes,
  SYNC_EXECUTION_INPUT_BYTES,
} from "@effectively-once/contract";
import { DlqAttribute } from "@effectively-once/contract";
import { propProblems } from "./support/prop-problems";

function accepted(props: Partial<IdempotentPipelineProps>): boolean {
  return propProblems(props).length === 0;
}

/** Text of exactly `bytes` UTF-8 bytes from a repeated unit (padded with ASCII). */
function textOf(unit: string, bytes: number): string {
  const each = Buffer.byteLength(unit);
  const text = unit.repeat(Math.floor(bytes / each));
  return text + "x".repeat(bytes - Buffer.byteLength(text));
}

/** The \u escape of each UTF-16 code unit met so far: the batches repeat a few units millions of times. */
const ESCAPES = new Map<string, string>();

/**
 * Every character outside printable ASCII as \u escapes: the stated worst case of a serializer (limits.ts). Matched
 * one UTF-16 code unit at a time (no `u` flag), so a surrogate pair becomes its two escapes, as a serializer writes it.
 */
function escapedEverywhere(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (unit) => {
    let escaped = ESCAPES.get(unit);
    if (escaped === undefined) {
      escaped = `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
      ESCAPES.set(unit, escaped);
    }
    return escaped;
  });
}

const UNITS = { cyrillic: "ж", cjk: "語", emoji: "😀", quotes: '"', backslashes: "\\", newlines: "\n" } as const;

/** A received message of exactly `queueMax` bytes as SQS counts them, with the longest system values. */
function largestMessage(unit: string, queueMax: number, attributes: number): Message {
  const MessageAttributes: Record<string, MessageAttributeValue> = Object.create(null);
  let used = 0;
  // Half the size in attribute values, half in the body.
  const valueBytes = attributes === 0 ? 0 : Math.floor(queueMax / (2 * attributes)) - 8;
  for (let i = 0; i < attributes; i++) {
    const name = `a${i}`;
    const value = textOf(unit, valueBytes);
    MessageAttributes[name] = { DataType: "String", StringValue: value };
    used += name.length + "String".length + Buffer.byteLength(value);
  }
  return {
    MessageId: "m".repeat(100),
    ReceiptHandle: "r".repeat(1024),
    MD5OfBody: "0".repeat(32),
    MD5OfMessageAttributes: attributes > 0 ? "0".repeat(32) : undefined,
    Body: textOf(unit, queueMax - used),
    Attributes: { ApproximateReceiveCount: "9".repeat(20), SentTimestamp: "1".repeat(20), SenderId: "s".repeat(128), ApproximateFirstReceiveTimestamp: "1".repeat(20), AWSTraceHeader: "t".repeat(256) },
    MessageAttributes,
  };
}

/** Each record the pipe builds, with its JSON escaped, by message size, script and attribute count: batch sizes share them. */
const RECORDS = new Map<string, { readonly record: ReturnType<typeof toSqsRecord>; readonly escaped: string }>();

/** The pipe's record of the largest message (largestMessage) from a queue of the longest name, and its escaped JSON. */
function largestRecord(unit: string, queueMax: number, attributes: number): { readonly record: ReturnType<typeof toSqsRecord>; readonly escaped: string } {
  const id = `${queueMax} ${attributes} ${unit}`;
  let known = RECORDS.get(id);
  if (!known) {
    const record = toSqsRecord(largestMessage(unit, queueMax, attributes), `arn:aws-iso-b:sqs:us-isob-east-1:000000000000:${"q".repeat(80)}`, "us-isob-east-1");
    known = { record, escaped: escapedEverywhere(JSON.stringify(record)) };
    RECORDS.set(id, known);
  }
  return known;
}

describe("Synth-time invariants: sizes in bytes", () => {
  const grid = [1024, 4096, 6144, 6520, 6521, 8192, 16384, 40000, 85163, 85164, 122880, 129024];

  it("keeps a whole batch of the largest messages, in any script, within StartSyncExecution's 262,144 bytes", () => {
    let checked = 0;
    for (let batchSize = 1; batchSize <= 10; batchSize++) {
      for (const maxMessageBytes of [...grid, largestMaxMessageBytes(batchSize)]) {
        if (!accepted({ batchSize, maxMessageBytes })) continue;
        const queueMax = sourceQueueMaxBytes(maxMessageBytes);
        for (const [script, unit] of Object.entries(UNITS)) {
          for (const attributes of [0, MAX_PRODUCER_ATTRIBUTES + 1]) {
            const { record, escaped } = largestRecord(unit, queueMax, attributes);
            const input = JSON.stringify(Array.from({ length: batchSize }, () => record));
            // Escaping goes character by character and the batch's own "[", "," and "]" are printable ASCII: the
            // escaped batch is the escaped records joined (checked in full once per record, at batch size 2).
            const escapedInput = `[${Array.from({ length: batchSize }, () => escaped).join(",")}]`;
            if (batchSize === 2) expect(escapedInput === escapedEverywhere(input)).toBe(true);
            const why = `batchSize ${batchSize}, maxMessageBytes ${maxMessageBytes}, ${script}, ${attributes} attributes`;
            expect({ why, bytes: Math.max(Buffer.byteLength(input), Buffer.byteLength(escapedInput)) <= SYNC_EXECUTION_INPUT_BYTES }).toEqual({ why, bytes: true });
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("accepts the default (10 × 6 KiB) and the largest size of each batch size, and refuses one byte more", () => {
    expect(accepted({})).toBe(true);
    for (let batchSize = 1; batchSize <= 10; batchSize++) {
      expect(accepted({ batchSize, maxMessageBytes: largestMaxMessageBytes(batchSize) })).toBe(true);
      expect(accepted({ batchSize, maxMessageBytes: largestMaxMessageBytes(batchSize) + 1 })).toBe(false);
    }
  });

  it("keeps the redrive's room for firstSentTimestamp as SQS counts it (name, Number, 13 digits)", () => {
    expect(REDRIVE_ATTRIBUTE_BYTES).toBe(DlqAttribute.FirstSentTimestamp.length + "Number".length + String(Date.UTC(2286, 0, 1) - 1).length);
  });
});
