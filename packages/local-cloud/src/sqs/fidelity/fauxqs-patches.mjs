// Where fauxqs 1.9.2 differs from AWS in ways users hit, patched at its seams (one patch per difference, each
// checked by packages/local-cloud/test/sqs); the larger differences have a module each (see install.mjs).
import messageAttributeRules from "../rules/message-attributes.cjs";
import { INVALID_MESSAGE_BODY_CHAR, SqsQueue, SqsStore } from "./fauxqs-internals.mjs";

/** AWS's valid characters (SendMessage), from the shared rules (../rules/message-attributes.cjs). */
const { INVALID_SQS_CHARACTER } = messageAttributeRules;

const LOCAL_ACCOUNT = "000000000000";

export function patchFauxqs() {
  allowNonBmpCharacters(INVALID_MESSAGE_BODY_CHAR);
  countAfterExpiredVisibility(SqsQueue);
  acceptLocalQueueUrls(SqsStore);
}

/**
 * fauxqs's character check has no `u` flag, so it reads an emoji as two lone surrogates and refuses it. Its
 * send actions call `.test` on this one shared RegExp: give that object AWS's rule.
 */
function allowNonBmpCharacters(fauxqsCheck) {
  fauxqsCheck.test = (text) => INVALID_SQS_CHARACTER.test(text);
}

/**
 * fauxqs returns messages whose visibility ran out to the queue only on its next receive, so
 * GetQueueAttributes after a receive with `VisibilityTimeout=0` reported the message as in flight. AWS counts it
 * as visible at once: settle the timers before reading the counts.
 */
function countAfterExpiredVisibility(SqsQueue) {
  const getAllAttributes = SqsQueue.prototype.getAllAttributes;
  SqsQueue.prototype.getAllAttributes = function (names) {
    this.processTimers();
    return getAllAttributes.call(this, names);
  };
}

/**
 * fauxqs finds a queue by the exact URL it returned (`http://sqs.<region>.localhost:<port>/<account>/<name>`).
 * Clients pointed at `http://127.0.0.1:<port>` or `localhost` build URLs with that host: accept those too (the
 * port is not compared: every local queue lives on this one server).
 */
function acceptLocalQueueUrls(SqsStore) {
  const getQueue = SqsStore.prototype.getQueue;
  SqsStore.prototype.getQueue = function (url) {
    const exact = getQueue.call(this, url);
    if (exact) return exact;
    const name = localQueueName(url);
    return name === undefined ? undefined : this.getQueueByName(name);
  };
  const deleteQueue = SqsStore.prototype.deleteQueue;
  SqsStore.prototype.deleteQueue = function (url) {
    return deleteQueue.call(this, this.getQueue(url)?.url ?? url);
  };
}

/** The queue name in a local queue URL, or undefined when the URL is not one. */
export function localQueueName(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const host = parsed.hostname;
  const local = host === "127.0.0.1" || host === "localhost" || /^sqs\.[a-z0-9-]+\.localhost$/.test(host);
  const match = /^\/(\d{12})\/([^/]+)$/.exec(parsed.pathname);
  return local && match && match[1] === LOCAL_ACCOUNT ? match[2] : undefined;
}
