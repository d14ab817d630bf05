// Puts AWS fidelity in front of fauxqs's one `POST /` route: the SQS query protocol (translated to the JSON
// protocol fauxqs serves, answered in XML), AWS's message-attribute rules, and the patches of fauxqs-patches.mjs.
// JSON-protocol requests pass through untouched except for the attribute check.
import { checkMessageAttributes } from "./message-attributes.mjs";
import { patchFauxqs } from "./fauxqs-patches.mjs";
import { isSqsQueryRequest, queryToJson } from "./query-request.mjs";
import { errorToXml, queryHeaderCode, resultToXml } from "./query-response.mjs";
import { createSenderIds } from "./sender-id.mjs";

const JSON_CONTENT_TYPE = "application/x-amz-json-1.0";
const SENDER_ACTIONS = new Set(["SendMessage", "SendMessageBatch", "ReceiveMessage"]);

/** Call before `app.listen()`: hooks can only be added while the app is not yet ready. */
export async function installSqsFidelity(app) {
  await patchFauxqs();
  const senders = createSenderIds();
  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || request.routeOptions?.url !== "/") return undefined;
    const contentType = String(request.headers["content-type"] ?? "");
    if (contentType.includes("x-www-form-urlencoded") && isSqsQueryRequest(request.body)) {
      const action = request.body.Action;
      request.sqsQueryAction = action;
      request.body = queryToJson(request.body);
      request.headers["content-type"] = JSON_CONTENT_TYPE;
      request.headers["x-amz-target"] = `AmazonSQS.${action}`;
    } else if (!contentType.includes(JSON_CONTENT_TYPE)) {
      return undefined;
    }
    request.sqsAction = String(request.headers["x-amz-target"] ?? "").replace("AmazonSQS.", "");
    request.sqsSender = senders.senderOf(request);
    return checkAttributes(request, reply);
  });
  // The sender of a sent message is remembered, and stamped into a received one, on the answer object fauxqs's
  // route returns, before Fastify serializes it: no second parse and stringify of every ReceiveMessage answer.
  app.addHook("preSerialization", async (request, reply, payload) => {
    if (reply.statusCode >= 400 || !SENDER_ACTIONS.has(request.sqsAction) || payload === null || typeof payload !== "object") return payload;
    senders.recordSent(request.sqsAction, request.sqsSender, payload);
    if (request.sqsAction === "ReceiveMessage") senders.stampReceived(payload);
    return payload;
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode >= 400) fixQueryErrorHeader(reply);
    if (!request.sqsQueryAction && !request.sqsBatchFailures) return payload;
    if (typeof payload !== "string") return payload;
    let json;
    try {
      json = JSON.parse(payload);
    } catch {
      json = { message: payload };
    }
    if (request.sqsBatchFailures && Array.isArray(json.Failed)) json.Failed.push(...request.sqsBatchFailures);
    if (!request.sqsQueryAction) return JSON.stringify(json);
    reply.header("content-type", "text/xml");
    return reply.statusCode >= 400 ? errorToXml(json, reply.statusCode) : resultToXml(request.sqsQueryAction, json);
  });
}

/**
 * fauxqs puts `AWS.SimpleQueueService.` before every code in `x-amzn-query-error`; AWS does so only for some
 * (InvalidParameterValue goes bare). SDKs on the JSON protocol name their errors from this header.
 */
function fixQueryErrorHeader(reply) {
  const header = reply.getHeader("x-amzn-query-error");
  if (typeof header !== "string") return;
  const [code, fault] = header.split(";");
  reply.header("x-amzn-query-error", `${queryHeaderCode(code)};${fault ?? "Sender"}`);
}

/** SendMessage: refuse the call; SendMessageBatch: fail only the entries that break a rule, as AWS does. */
function checkAttributes(request, reply) {
  const action = String(request.headers["x-amz-target"] ?? "").replace("AmazonSQS.", "");
  const body = request.body ?? {};
  if (action === "SendMessage") {
    const problem = checkMessageAttributes(body.MessageAttributes);
    return problem ? refuse(reply, problem) : undefined;
  }
  if (action !== "SendMessageBatch" || !Array.isArray(body.Entries)) return undefined;
  // Batch-level errors (empty, too many, repeated ids) are fauxqs's to answer, before any entry is looked at.
  const ids = body.Entries.map((entry) => entry?.Id);
  if (body.Entries.length > 10 || new Set(ids).size !== ids.length) return undefined;
  const failed = [];
  const kept = body.Entries.filter((entry) => {
    const problem = checkMessageAttributes(entry?.MessageAttributes);
    if (problem) failed.push({ Id: entry.Id, SenderFault: true, Code: problem.code, Message: problem.message });
    return !problem;
  });
  if (failed.length === 0) return undefined;
  request.sqsBatchFailures = failed;
  if (kept.length > 0) {
    body.Entries = kept;
    return undefined;
  }
  request.sqsBatchFailures = undefined;
  return reply.code(200).header("content-type", JSON_CONTENT_TYPE).send({ Successful: [], Failed: failed });
}

function refuse(reply, { code, message }) {
  return reply
    .code(400)
    .header("content-type", JSON_CONTENT_TYPE)
    .header("x-amzn-query-error", `${code};Sender`)
    .send({ __type: `com.amazonaws.sqs#${code}`, message });
}
