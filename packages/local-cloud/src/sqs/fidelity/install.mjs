// Puts AWS fidelity in front of and inside fauxqs: the SQS query protocol (translated to the JSON protocol fauxqs
// serves, answered in XML), AWS's message-attribute rules, AWS's error names, and the behaviour fauxqs lacks or
// gets wrong, one module each (see ../README.md): receipt handles, retention, the redrive's system attributes,
// attribute filters, AWSTraceHeader, message move tasks, RedriveAllowPolicy, queue policies' explicit denies, FIFO delivery and
// deduplication, and small patches.
import { installActions } from "./actions.mjs";
import { installAwsErrorNames, replyWithError, sqsError } from "./aws-errors.mjs";
import { patchDequeue } from "./dequeue.mjs";
import { patchFauxqs } from "./fauxqs-patches.mjs";
import { patchFifo } from "./fifo.mjs";
import { installQueueMetrics } from "./metrics.mjs";
import { stopMoveTasks } from "./move-tasks.mjs";
import messageAttributeRules from "../rules/message-attributes.cjs";
import { isSqsQueryRequest, queryToJson } from "./query-request.mjs";
import { errorToXml, resultToXml } from "./query-response.mjs";
import { patchReceiptHandles } from "./receipt-handles.mjs";
import { patchRedrive } from "./redrive.mjs";
import { patchRedriveAllow } from "./redrive-allow.mjs";
import { patchRetention } from "./retention.mjs";
import { patchMessageCreation } from "./send.mjs";
import { senderOf } from "./sender-id.mjs";

const { checkMessageAttributes } = messageAttributeRules;
const JSON_CONTENT_TYPE = "application/x-amz-json-1.0";

/** Patches fauxqs's classes: call once, before `buildApp()`. */
export function patchSqs() {
  installAwsErrorNames();
  patchFauxqs();
  patchDequeue();
  patchReceiptHandles();
  patchRedrive();
  patchRedriveAllow();
  patchRetention();
  patchMessageCreation();
  patchFifo();
  installActions();
}

/** Call before `app.listen()`: hooks can only be added while the app is not yet ready. */
export function installSqsFidelity(app, store) {
  app.addHook("preClose", () => stopMoveTasks(store));
  installQueueMetrics(app, store);
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
    request.sqsSender = senderOf(request);
    return checkAttributes(request, reply);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (!request.sqsQueryAction || typeof payload !== "string") return payload;
    let json;
    try {
      json = JSON.parse(payload);
    } catch {
      json = { message: payload };
    }
    reply.header("content-type", "text/xml");
    return reply.statusCode >= 400 ? errorToXml(json, reply.statusCode) : resultToXml(request.sqsQueryAction, json);
  });
}

/** SendMessage: refuse the call; SendMessageBatch: fail only the entries that break a rule, as AWS does. */
function checkAttributes(request, reply) {
  const action = String(request.headers["x-amz-target"] ?? "").replace("AmazonSQS.", "");
  const body = request.body ?? {};
  if (action === "SendMessage") {
    const problem = checkMessageAttributes(body.MessageAttributes);
    return problem ? replyWithError(reply, sqsError(problem.code, problem.message)) : undefined;
  }
  if (action !== "SendMessageBatch" || !Array.isArray(body.Entries)) return undefined;
  // Batch-level errors (empty, too many, repeated ids) are answered first (request-checks.mjs).
  const ids = body.Entries.map((entry) => entry?.Id);
  if (body.Entries.length > 10 || new Set(ids).size !== ids.length) return undefined;
  const failed = [];
  const kept = body.Entries.filter((entry) => {
    const problem = checkMessageAttributes(entry?.MessageAttributes);
    if (problem) failed.push({ Id: entry.Id, SenderFault: true, Code: problem.code, Message: problem.message });
    return !problem;
  });
  if (failed.length === 0) return undefined;
  if (kept.length > 0) {
    request.sqsBatchFailures = failed;
    body.Entries = kept;
    return undefined;
  }
  return reply.code(200).header("content-type", JSON_CONTENT_TYPE).send({ Failed: failed });
}
