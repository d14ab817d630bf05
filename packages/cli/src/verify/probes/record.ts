/**
 * How Pipes serializes a multi-byte record: a message with Cyrillic, CJK, an emoji, `"`, `\`, tab, LF, `<>&'` and DEL
 * in its body and attributes goes through the probe stack's pipe; the state machine's logged input shows how each
 * was written and how many bytes the record took, held to the synth's worst case (record-bound.ts). A record above
 * it fails the run loudly: the synth's batch bound would then not hold on AWS.
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { nthDelivery } from "../observe";
import { sqsMessageBytes, worstRecordBytes } from "../record-bound";
import type { Fact, Probe } from "../types";
import { probeBody, send } from "./messages";

const HOSTILE_TEXT = "Привет 世界 😀 \" \\ \t \n <>&' \u007f end";

/** JSON text, with DEL and the C1 controls escaped too, so that every form is visible. */
const shown = (text: string) => JSON.stringify(text).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Which of `forms` (the character as is, or an escape of it) the raw input holds, shown as JSON; the first found wins. */
function written(input: string, ...forms: string[]): string {
  const found = forms.find((f) => input.includes(f));
  return found === undefined ? `none of ${forms.map(shown).join(", ")}` : shown(found);
}

export const recordProbe: Probe = {
  id: "record-serialization",
  title: "How the pipe serializes a multi-byte record, against the synth's worst case",
  protects: "a batch of valid messages always fits StartSyncExecution's 262,144 bytes (the synth's batch-size × message-size bound)",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 1, resource: stack.names.queue, why: "one message, multi-byte and escaped text in body and attributes" },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 10, resource: stack.names.workflowLogGroup, why: "the execution that received it (polled)" },
  ],
  async run(context) {
    const body = JSON.stringify(probeBody(context, 1, { verifyText: HOSTILE_TEXT }));
    const attributes: Record<string, MessageAttributeValue> = { verifyText: { DataType: "String", StringValue: HOSTILE_TEXT } };
    const id = await send(context, body, attributes);
    const delivery = await nthDelivery(context, id, 1, 300_000);
    const input = delivery.inputText;
    const alone = delivery.records.length === 1;
    const recordBytes = alone ? Buffer.byteLength(input.trim()) - 2 : undefined;
    const messageBytes = sqsMessageBytes(body, attributes);
    const bound = worstRecordBytes(messageBytes);
    // Control characters reach the record raw only through the attribute (the body's JSON already escapes them).
    const at = input.indexOf('"messageAttributes"');
    const attributePart = at < 0 ? "" : input.slice(at);
    const inAttribute = (...forms: string[]) => (at < 0 ? "no messageAttributes in the record" : written(attributePart, ...forms));
    const facts: Fact[] = [
      ["body arrives unchanged", String(delivery.record.body === body)],
      ["Cyrillic written", written(input, "Привет", "\\u041f")],
      ["CJK written", written(input, "世界", "\\u4e16")],
      ["emoji written", written(input, "😀", "\\ud83d\\ude00", "\\uD83D\\uDE00")],
      ["<>&' written", written(input, "<>&'", "\\u003c", "\\u003C")],
      ["DEL written (attribute)", inAttribute("\u007f", "\\u007f")],
      ["tab written (attribute)", inAttribute("\\t", "\\u0009")],
      ["LF written (attribute)", inAttribute("\\n", "\\u000a")],
      ["record within the synth's worst case", recordBytes === undefined ? "not measured (batched with other records)" : String(recordBytes <= bound)],
      ["record bytes / message bytes (SQS) / worst case", `${recordBytes ?? "?"} / ${messageBytes} / ${bound}`, false],
    ];
    const failures = recordBytes !== undefined && recordBytes > bound ? [`the record took ${recordBytes} bytes, above the synth's worst case of ${bound} for a ${messageBytes}-byte message: the batch bound (limits.ts) does not hold`] : [];
    return { facts, failures };
  },
};
