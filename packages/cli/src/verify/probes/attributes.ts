/**
 * Does the pipe pass a message's own attributes on, and in which shape? A message with a String, a Number, a Binary
 * and a custom-typed attribute; the record the state machine received shows them (and the system attributes).
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";
import { nthDelivery } from "../observe";
import type { Probe } from "../types";
import { probeBody, send } from "./messages";

const ATTRIBUTES: Record<string, MessageAttributeValue> = {
  verifyString: { DataType: "String", StringValue: "Привет" },
  verifyNumber: { DataType: "Number", StringValue: "42.50" },
  verifyBinary: { DataType: "Binary", BinaryValue: Uint8Array.from([0, 1, 2, 254, 255]) },
  verifyCustom: { DataType: "String.verify", StringValue: "custom" },
};

/** An attribute's members and their JSON types: `{"dataType":string,"stringValue":string,...}`. */
function shape(value: unknown): string {
  if (typeof value !== "object" || value === null) return typeof value;
  return `{${Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => `${k}:${Array.isArray(v) ? "array" : v === null ? "null" : typeof v}`).join(",")}}`;
}

export const attributesProbe: Probe = {
  id: "message-attributes",
  title: "A message's custom attributes in the record the state machine receives",
  protects: "metadata has one author: a producer's attribute is data; filters and redrives read attributes as the pipe passes them",
  needsStack: true,
  calls: (stack) => [
    { service: "SQS", action: "SendMessage", count: 1, resource: stack.names.queue, why: "one message with String, Number, Binary and custom-typed attributes" },
    { service: "CloudWatch Logs", action: "FilterLogEvents", count: 10, resource: stack.names.workflowLogGroup, why: "the execution that received it (polled)" },
  ],
  async run(context) {
    const id = await send(context, JSON.stringify(probeBody(context, 5)), ATTRIBUTES);
    const { record } = await nthDelivery(context, id, 1, 300_000);
    const received = record.messageAttributes ?? {};
    const get = (name: string) => received[name] as Record<string, unknown> | undefined;
    return {
      facts: [
        ["messageAttributes passed on", String(Object.keys(received).length > 0)],
        ["names", Object.keys(received).sort().join(", ")],
        ["String attribute shape", shape(get("verifyString"))],
        ["String value", JSON.stringify(get("verifyString")?.stringValue)],
        ["Number value", JSON.stringify(get("verifyNumber")?.stringValue)],
        ["Binary value", JSON.stringify(get("verifyBinary")?.binaryValue)],
        ["custom type", JSON.stringify(get("verifyCustom")?.dataType)],
        ["system attributes", Object.keys(record.attributes ?? {}).sort().join(", ")],
        ["record members", Object.keys(record).sort().join(", ")],
      ],
    };
  },
};
