/**
 * What SQS's own message move (StartMessageMoveTask, the console's "Start DLQ redrive") keeps of a message: a
 * message with attributes is put in the probe stack's DLQ (which allows native moves, unlike a default stack's),
 * moved to the source queue, and its record, as the workflow receives it, compared with the original.
 */
import { ReceiveMessageCommand, StartMessageMoveTaskCommand, type MessageAttributeValue } from "@aws-sdk/client-sqs";
import { OutputName } from "@effectively-once/contract";
import { nthDelivery, waitUntil } from "../observe";
import type { Fact, Probe } from "../types";
import { probeBody, queueUrl, send } from "./messages";

const ATTRIBUTES: Record<string, MessageAttributeValue> = {
  verifyString: { DataType: "String", StringValue: "kept?" },
  verifyNumber: { DataType: "Number", StringValue: "7" },
};

export const moveProbe: Probe = {
  id: "message-move",
  title: "What a native message move (StartMessageMoveTask) keeps",
  protects: "native moves are refused by the DLQ's policy: a moved copy gets a new id and enqueue time, which every redrive guard relies on",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 1, resource: stack.names.dlq, why: "one message with attributes, straight into the DLQ" },
    { service: "SQS", action: "ReceiveMessage", count: 2, resource: stack.names.dlq, why: "its id, SentTimestamp and SenderId (visibility 0: it stays)" },
    { service: "SQS", action: "StartMessageMoveTask", count: 1, resource: `${stack.names.dlq} → ${stack.names.queue}`, why: "the native move (the probe stack allows it)" },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 20, resource: stack.names.workflowLogGroup, why: "the moved message's record (polled)" },
  ],
  async run(context) {
    const marker = `${context.runId}-moved`;
    const body = JSON.stringify(probeBody(context, 4, { verifyMarker: marker }));
    const sentId = await send(context, body, ATTRIBUTES, "dlq");
    const original = await waitUntil(context, "the message in the DLQ", 60_000, async () => {
      const out = await context.clients.sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl(context, "dlq"), MaxNumberOfMessages: 10, VisibilityTimeout: 0, WaitTimeSeconds: 1, MessageSystemAttributeNames: ["All"] }));
      return (out.Messages ?? []).find((m) => m.MessageId === sentId);
    });
    const facts: Fact[] = [];
    try {
      await context.clients.sqs.send(new StartMessageMoveTaskCommand({ SourceArn: String(context.outputs[OutputName.DlqArn]), DestinationArn: String(context.outputs[OutputName.QueueArn]) }));
      facts.push(["StartMessageMoveTask", "accepted"]);
    } catch (error) {
      facts.push(["StartMessageMoveTask", `refused: ${(error as Error).name}`]);
      return { facts };
    }
    const moved = (await nthDelivery(context, marker, 1, 300_000, { pick: (r) => r.body === body })).record;
    const kept = (name: string) => (moved.attributes?.[name] === undefined ? "absent" : moved.attributes[name] === (original.Attributes as Record<string, string> | undefined)?.[name] ? "kept" : "new");
    facts.push(
      ["message id", moved.messageId === sentId ? "kept" : "new"],
      ["SentTimestamp", kept("SentTimestamp")],
      ["SenderId", kept("SenderId")],
      ["message attributes kept", Object.keys(moved.messageAttributes ?? {}).sort().join(", ") || "none"],
      ["receive count after the move", String(moved.attributes?.ApproximateReceiveCount)],
      ["DeadLetterQueueSourceArn", moved.attributes?.DeadLetterQueueSourceArn === undefined ? "absent" : "present"],
    );
    return { facts };
  },
};
