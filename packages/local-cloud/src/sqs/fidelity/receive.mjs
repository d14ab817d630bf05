// ReceiveMessage's attribute filters as recorded on AWS (fauxqs 1.9.2 returned every message attribute for `[]` and
// none for `*` or a prefix):
// - MessageAttributeNames: absent or `[]` → none; `All`, `*` or `.*` → all; a name → that attribute; `Hel.*` → every
//   attribute whose name starts with `Hel`; anything else matches nothing. MD5OfMessageAttributes covers what is
//   returned and is absent with it.
// - AttributeNames and MessageSystemAttributeNames together (their union): `All` → every system attribute the message
//   has, a name → that one when the message has it (SequenceNumber and the other FIFO attributes only on FIFO queues).
// SenderId is the identity that signed the SendMessage (sender-id.mjs), kept across the redrive.
import messageAttributeRules from "../rules/message-attributes.cjs";
import { MESSAGE } from "./receipt-handles.mjs";

const { md5OfMessageAttributes } = messageAttributeRules;

const LOCAL_ACCOUNT = "000000000000";

/** System attribute name → its value for a stored message (undefined: the message has none). */
const SYSTEM_ATTRIBUTES = new Map([
  ["SenderId", (m) => m.senderId ?? LOCAL_ACCOUNT],
  ["SentTimestamp", (m) => String(m.sentTimestamp)],
  ["ApproximateReceiveCount", (m) => String(m.approximateReceiveCount)],
  ["ApproximateFirstReceiveTimestamp", (m) => (m.approximateFirstReceiveTimestamp ? String(m.approximateFirstReceiveTimestamp) : undefined)],
  ["AWSTraceHeader", (m) => m.awsTraceHeader],
  ["DeadLetterQueueSourceArn", (m) => m.deadLetterQueueSourceArn],
  ["MessageGroupId", (m) => m.messageGroupId],
  ["MessageDeduplicationId", (m) => m.messageDeduplicationId],
  ["SequenceNumber", (m) => m.sequenceNumber],
]);

/** A matcher for message attribute names, or undefined when the filter asks for none. */
function attributeMatcher(names) {
  if (!Array.isArray(names) || names.length === 0) return undefined;
  if (names.some((name) => name === "All" || name === "*" || name === ".*")) return () => true;
  const exact = new Set(names.filter((name) => !name.endsWith(".*")));
  const prefixes = names.filter((name) => name.endsWith(".*")).map((name) => name.slice(0, -2));
  return (name) => exact.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}

function systemAttributes(message, names) {
  const wanted = names.includes("All") ? [...SYSTEM_ATTRIBUTES.keys()] : names;
  const out = {};
  for (const name of wanted) {
    const value = SYSTEM_ATTRIBUTES.get(name)?.(message);
    if (value !== undefined) out[name] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** One entry of the answer, filtered: the entry fauxqs built carries every message attribute and no system attribute. */
function filtered(entry, matcher, systemNames) {
  const message = entry[MESSAGE];
  const out = { MessageId: entry.MessageId, ReceiptHandle: entry.ReceiptHandle, MD5OfBody: entry.MD5OfBody, Body: entry.Body };
  const attributes = systemNames.length > 0 && message ? systemAttributes(message, systemNames) : undefined;
  if (attributes) out.Attributes = attributes;
  const all = entry.MessageAttributes ?? {};
  const kept = matcher ? Object.fromEntries(Object.entries(all).filter(([name]) => matcher(name))) : {};
  if (Object.keys(kept).length > 0) {
    out.MD5OfMessageAttributes = md5OfMessageAttributes(kept);
    out.MessageAttributes = kept;
  }
  return out;
}

export const receiveActions = new Map([
  [
    "ReceiveMessage",
    async (body, store, request, fauxqs) => {
      const { AttributeNames, MessageSystemAttributeNames, MessageAttributeNames, ...rest } = body;
      const result = await fauxqs(rest, store, request);
      const systemNames = [...(AttributeNames ?? []), ...(MessageSystemAttributeNames ?? [])];
      const matcher = attributeMatcher(MessageAttributeNames);
      return { Messages: result.Messages?.map((entry) => filtered(entry, matcher, systemNames)) };
    },
  ],
]);
