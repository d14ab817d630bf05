/**
 * The probes' messages: valid bodies of the team's contract (its profile), each with a key of this run alone, sent
 * to the probe stack's queue; and a peek at its DLQ that leaves every message there.
 */
import { randomUUID } from "node:crypto";
import { ReceiveMessageCommand, SendMessageCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { isFifoQueue } from "@effectively-once/contract";
import { OutputName } from "@effectively-once/contract";
import type { ProbeContext } from "../types";

/** A small seeded generator for the profile's `random()`: the same run id gives the same bodies. */
function seeded(seed: string): () => number {
  let state = [...seed].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 2166136261);
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A valid body of the team's contract whose key belongs to this run and `index` alone; `probe` instructs the no-op function. */
export function probeBody(context: ProbeContext, index: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...context.stack.profile.unique(index, context.runId, seeded(`${context.runId}/${index}`)), ...extra };
}

/** The URL of a queue of the probe stack, from the outputs verify checked. */
export function queueUrl(context: ProbeContext, which: "queue" | "dlq"): string {
  return String(context.outputs[which === "queue" ? OutputName.QueueUrl : OutputName.DlqUrl]);
}

/**
 * Sends one message; to a FIFO queue (fifo: true) in message group `group` (default: the run's own) with a
 * deduplication id of its own, so SQS's deduplication never drops a probe.
 */
export async function send(context: ProbeContext, body: string, attributes?: Record<string, MessageAttributeValue>, which: "queue" | "dlq" = "queue", group = context.runId): Promise<string> {
  const url = queueUrl(context, which);
  const fifo = isFifoQueue(url) ? { MessageGroupId: group, MessageDeduplicationId: randomUUID() } : {};
  const out = await context.clients.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: body, ...(attributes ? { MessageAttributes: attributes } : {}), ...fifo }));
  return out.MessageId!;
}

/** Receives from the DLQ without hiding anything (visibility 0) and returns the messages `match` picks. */
export async function peekDlq(context: ProbeContext, match: (body: string) => boolean) {
  const out = await context.clients.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl(context, "dlq"), MaxNumberOfMessages: 10, VisibilityTimeout: 0, WaitTimeSeconds: 1, MessageSystemAttributeNames: ["All"], MessageAttributeNames: ["All"] }),
  );
  return (out.Messages ?? []).filter((m) => match(m.Body ?? ""));
}
