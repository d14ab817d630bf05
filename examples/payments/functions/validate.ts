import { MAX_BUSINESS_KEY_BYTES } from "../../../src/contract/limits";
import { checkPayload, type FunctionContract } from "../../../functions/contract";
import { ValidationError } from "../../../functions/errors";
import type { PaymentEvent, PaymentPayload } from "./types";

/** No `#`: the operation is the last segment of the downstream key, so the key splits unambiguously. */
const OPERATION_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

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

function requireText(source: JsonObject, key: string, field: string, fix: string): string {
  const value = source[key];
  if (typeof value !== "string" || value.trim() === "") fail(field, fix, value);
  return value;
}

/** The charge needs these two; the field rules promise them, so this only fires if the deployed rules do not. */
function assertChargeable(payload: JsonObject): asserts payload is PaymentPayload {
  if (typeof payload.amount !== "number") fail("payload.amount", "a number (declare amount as an integer field rule)", payload.amount);
  if (typeof payload.currency !== "string") fail("payload.currency", "a string (declare currency as a string field rule)", payload.currency);
}

/** A checked event and its payload hash (the canonical one the ledger stores, see src/contract/canonical.ts). */
export interface ValidatedPaymentEvent {
  readonly event: PaymentEvent;
  readonly payloadHash: string;
}

/**
 * Checks the state machine's event against the pipeline contract (the same field rules and canonical numbers as
 * the state machine's Decode step); throws `ValidationError` naming the first bad field and the fix.
 */
export function validatePaymentEvent(event: unknown, contract: FunctionContract): ValidatedPaymentEvent {
  if (!isObject(event)) {
    fail("event", "an object { businessKey, operation, messageId, receiveCount?, payload }", event);
  }
  const businessKey = requireText(event, "businessKey", "businessKey", 'the canonical key text the state machine derives, e.g. ["t1","o-42"]');
  if (Buffer.byteLength(businessKey, "utf8") > MAX_BUSINESS_KEY_BYTES) {
    fail("businessKey", `at most ${MAX_BUSINESS_KEY_BYTES} bytes (shorten the key fields)`, businessKey);
  }
  const operation = event.operation;
  if (typeof operation !== "string" || !OPERATION_PATTERN.test(operation)) {
    fail("operation", 'a name of letters, digits, "-" or "_" up to 64 characters, e.g. "charge"', operation);
  }
  const messageId = requireText(event, "messageId", "messageId", "the SQS messageId of the record");
  const receiveCount = event.receiveCount;
  if (receiveCount !== undefined && (!Number.isSafeInteger(receiveCount) || (receiveCount as number) < 0)) {
    fail("receiveCount", "a whole number >= 0 (pass $number(attributes.ApproximateReceiveCount)) or no field", receiveCount);
  }
  const payload = event.payload;
  if (!isObject(payload)) {
    fail("payload", "the parsed message body as a JSON object (pass $parse(body), not the string)", payload);
  }
  const payloadHash = checkPayload(payload, contract);
  assertChargeable(payload);
  return {
    event: {
      businessKey,
      operation,
      messageId,
      ...(receiveCount === undefined ? {} : { receiveCount: receiveCount as number }),
      payload,
    },
    payloadHash,
  };
}
