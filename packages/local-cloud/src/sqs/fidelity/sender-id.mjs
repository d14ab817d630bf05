// SenderId as AWS reports it: the identity that sent the message, which a producer cannot set (unlike any message
// attribute). fauxqs answers a fixed "000000000000"; here the identity is the access key id the request was signed
// with (AWS: an IAM user's id, or `<role id>:<session>` for a role), remembered per message id. A message the queue's
// redrive moves keeps its id, so it keeps its sender, as on AWS. Unsigned requests keep fauxqs's value.

const CREDENTIAL = /Credential=([^/,\s]+)\//;
/** Message ids remembered at most (oldest forgotten first), so a long soak cannot grow the map without bound. */
const MAX_REMEMBERED = 200_000;

export function createSenderIds() {
  const senders = new Map();
  const remember = (messageId, sender) => {
    if (typeof messageId !== "string" || !sender) return;
    senders.set(messageId, sender);
    if (senders.size > MAX_REMEMBERED) senders.delete(senders.keys().next().value);
  };
  return {
    /** The signing identity of a request, from its SigV4 Authorization header (or the query protocol's X-Amz-Credential). */
    senderOf(request) {
      const header = String(request.headers?.authorization ?? "");
      const match = CREDENTIAL.exec(header) ?? CREDENTIAL.exec(`Credential=${request.query?.["X-Amz-Credential"] ?? ""}`);
      return match ? decodeURIComponent(match[1]) : undefined;
    },
    /** After a successful SendMessage / SendMessageBatch answer (the object before serialization): remember who sent each message. */
    recordSent(action, sender, json) {
      if (action === "SendMessage") remember(json?.MessageId, sender);
      if (action === "SendMessageBatch" && Array.isArray(json?.Successful)) for (const entry of json.Successful) remember(entry?.MessageId, sender);
    },
    /** In a ReceiveMessage answer (the object before serialization), the sender of each message that reports a SenderId. */
    stampReceived(json) {
      if (!Array.isArray(json?.Messages)) return false;
      let changed = false;
      for (const message of json.Messages) {
        const sender = senders.get(message?.MessageId);
        if (sender && message.Attributes && "SenderId" in message.Attributes) {
          message.Attributes.SenderId = sender;
          changed = true;
        }
      }
      return changed;
    },
  };
}
