// What SendMessage / SendMessageBatch store beyond fauxqs 1.9.2, as AWS does:
// - the sender: the identity that signed the request (SenderId, which no attribute can forge; sender-id.mjs);
// - AWSTraceHeader, the one message system attribute: from `MessageSystemAttributes` or, failing that, from the
//   request's X-Amzn-Trace-Id header (recorded on AWS); it counts toward no size, its MD5 comes back as
//   MD5OfMessageSystemAttributes (recorded) and leaves MD5OfMessageAttributes alone;
// - a batch answer without an empty `Failed` list (recorded), with the entries that broke an attribute rule;
// - on a FIFO queue, AWS's id checks and deduplication scope (fifo.mjs).
import { sqsError } from "./aws-errors.mjs";
import messageAttributeRules from "../rules/message-attributes.cjs";
import { SqsStore } from "./fauxqs-internals.mjs";
import { fifoSend } from "./fifo.mjs";

const { md5OfMessageAttributes } = messageAttributeRules;

/** Messages fauxqs creates during one (synchronous) send action. */
let created;

export function patchMessageCreation() {
  const createMessage = SqsStore.createMessage;
  SqsStore.createMessage = function (...args) {
    const message = createMessage.apply(this, args);
    created?.push(message);
    return message;
  };
}

function collecting(run) {
  created = [];
  try {
    const result = run();
    return { result, messages: created };
  } finally {
    created = undefined;
  }
}

/** The trace header a message carries, after AWS's rules for `MessageSystemAttributes`. */
function traceHeader(systemAttributes, header) {
  if (systemAttributes === undefined || systemAttributes === null) return typeof header === "string" && header !== "" ? header : undefined;
  for (const [name, value] of Object.entries(systemAttributes)) {
    if (name !== "AWSTraceHeader") throw sqsError("InvalidParameterValue", `Message system attribute name '${name}' is invalid.`);
    if (value?.DataType !== "String" || typeof value.StringValue !== "string" || value.StringValue === "") {
      throw sqsError("InvalidParameterValue", "Message system attribute 'AWSTraceHeader' must contain a non-empty value of type 'String'.");
    }
  }
  return systemAttributes.AWSTraceHeader?.StringValue;
}

function stamp(message, sender, trace) {
  if (sender) message.senderId = sender;
  if (trace) message.awsTraceHeader = trace;
}

export const sendActions = new Map([
  [
    "SendMessage",
    (body, store, request, fauxqs) => {
      const trace = traceHeader(body.MessageSystemAttributes, request.headers["x-amzn-trace-id"]);
      const { result, messages } = collecting(() => fifoSend("SendMessage", body, store, request, fauxqs));
      for (const message of messages) stamp(message, request.sqsSender, trace);
      if (body.MessageSystemAttributes) result.MD5OfMessageSystemAttributes = md5OfMessageAttributes(body.MessageSystemAttributes);
      return result;
    },
  ],
  [
    "SendMessageBatch",
    (body, store, request, fauxqs) => {
      const traces = new Map((body.Entries ?? []).map((entry) => [entry.Id, traceHeader(entry.MessageSystemAttributes, request.headers["x-amzn-trace-id"])]));
      const { result, messages } = collecting(() => fifoSend("SendMessageBatch", body, store, request, fauxqs));
      const byId = new Map(messages.map((message) => [message.messageId, message]));
      for (const entry of result.Successful ?? []) {
        const message = byId.get(entry.MessageId);
        if (message) stamp(message, request.sqsSender, traces.get(entry.Id));
        const system = body.Entries.find((sent) => sent.Id === entry.Id)?.MessageSystemAttributes;
        if (system) entry.MD5OfMessageSystemAttributes = md5OfMessageAttributes(system);
      }
      const failed = [...(result.Failed ?? []), ...(request.sqsBatchFailures ?? [])];
      return failed.length > 0 ? { Successful: result.Successful, Failed: failed } : { Successful: result.Successful };
    },
  ],
]);
