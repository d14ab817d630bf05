// SenderId as AWS reports it: the identity that sent the message, which a producer cannot set (unlike any message
// attribute). fauxqs answers a fixed "000000000000"; here the identity is the access key id the request was signed
// with (AWS: an IAM user's id, or `<role id>:<session>` for a role). send.mjs stores it on the message, receive.mjs
// reports it; a message the queue's redrive moves is the same stored message, so it keeps its sender, as on AWS.
// Unsigned requests keep fauxqs's value.

const CREDENTIAL = /Credential=([^/,\s]+)\//;

/** The signing identity of a request, from its SigV4 Authorization header (or the query protocol's X-Amz-Credential). */
export function senderOf(request) {
  const header = String(request.headers?.authorization ?? "");
  const match = CREDENTIAL.exec(header) ?? CREDENTIAL.exec(`Credential=${request.query?.["X-Amz-Credential"] ?? ""}`);
  return match ? decodeURIComponent(match[1]) : undefined;
}
