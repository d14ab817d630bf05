import { MAX_BUSINESS_KEY_BYTES, OPERATION_PATTERN } from "@effectively-once/contract";
import { checkPayload, type FunctionContract } from "./payload-check";
import { ValidationError } from "./errors";
import type { PipelineEvent } from "./types";

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function fail(field: string, expected: string, value: unknown): never {
  throw new ValidationError(field, `${field}: expected ${expected}, got ${describe(value)}`);
}

function requireText(source: JsonObject, key: string, fix: string): string {
  const value = source[key];
  if (typeof value !== "string" || value.trim() === "") fail(key, fix, value);
  return value;
}

/**
 * Checks the state machine's event against the pipeline contract (the same field rules and canonical numbers as
 * the state machine's Decode step) and adds the canonical payload hash the ledger stores. Throws `ValidationError`
 * naming the first bad field and the fix.
 */
export function validatePipelineEvent(event: unknown, contract: FunctionContract): PipelineEvent {
  if (!isObject(event)) {
    fail("event", "an object { businessKey, operation, messageId, receiveCount?, firstSentAt?, payload }", event);
  }
  const businessKey = requireText(event, "businessKey", 'the canonical key text the state machine derives, e.g. ["t1","o-42"]');
  if (Buffer.byteLength(businessKey, "utf8") > MAX_BUSINESS_KEY_BYTES) {
    fail("businessKey", `at most ${MAX_BUSINESS_KEY_BYTES} bytes (shorten the key fields)`, businessKey);
  }
  const operation = event.operation;
  if (typeof operation !== "string" || !OPERATION_PATTERN.test(operation)) {
    fail("operation", 'a name of letters, digits, "-" or "_" up to 64 characters, e.g. "charge"', operation);
  }
  const messageId = requireText(event, "messageId", "the SQS messageId of the record");
  const receiveCount = event.receiveCount;
  if (receiveCount !== undefined && (!Number.isSafeInteger(receiveCount) || (receiveCount as number) < 0)) {
    fail("receiveCount", "a whole number >= 0 (pass $number(attributes.ApproximateReceiveCount)) or no field", receiveCount);
  }
  const firstSentAt = event.firstSentAt;
  if (firstSentAt !== undefined && (!Number.isSafeInteger(firstSentAt) || (firstSentAt as number) < 0)) {
    fail("firstSentAt", "epoch milliseconds of the message's first send (pass $number($firstSentTimestamp)) or no field", firstSentAt);
  }
  const payload = event.payload;
  if (!isObject(payload)) {
    fail("payload", "the parsed message body as a JSON object (pass $parse(body), not the string)", payload);
  }
  const payloadHash = checkPayload(payload, contract);
  return {
    businessKey,
    operation,
    messageId,
    ...(receiveCount === undefined ? {} : { receiveCount: receiveCount as number }),
    ...(firstSentAt === undefined ? {} : { firstSentAt: firstSentAt as number }),
    payload,
    payloadHash,
  };
}
