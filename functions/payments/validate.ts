import { ValidationError } from "../shared/errors";
import type { PaymentEvent, PaymentPayload } from "./types";

/** DynamoDB allows 2,048 bytes in a partition key; the downstream key is `<businessKey>#<operation>`. */
const MAX_BUSINESS_KEY_BYTES = 1024;
/** No `#`: the operation is the last segment of the downstream key, so the key splits unambiguously. */
const OPERATION_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;

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

function validatePayload(value: unknown): PaymentPayload {
  if (!isObject(value)) {
    fail("payload", "the parsed message body as a JSON object (pass $parse(body), not the string)", value);
  }
  requireText(value, "tenantId", "payload.tenantId", "a non-empty string naming the tenant");
  requireText(value, "orderId", "payload.orderId", "a non-empty string naming the order");
  const amount = value.amount;
  if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount <= 0) {
    fail("payload.amount", "a positive integer in minor units (e.g. 1250 for 12.50)", amount);
  }
  const currency = value.currency;
  if (typeof currency !== "string" || !CURRENCY_PATTERN.test(currency)) {
    fail("payload.currency", 'a 3-letter ISO 4217 code in upper case (e.g. "EUR")', currency);
  }
  return value as PaymentPayload;
}

/** Checks the state machine's event; throws `ValidationError` naming the first bad field and the fix. */
export function validatePaymentEvent(event: unknown): PaymentEvent {
  if (!isObject(event)) {
    fail("event", "an object { businessKey, operation, messageId, receiveCount?, payload }", event);
  }
  const businessKey = requireText(
    event,
    "businessKey",
    "businessKey",
    'a non-empty string derived from the message, e.g. "t1#o-42"',
  );
  if (Buffer.byteLength(businessKey, "utf8") > MAX_BUSINESS_KEY_BYTES) {
    fail("businessKey", `at most ${MAX_BUSINESS_KEY_BYTES} bytes (shorten the key expression)`, businessKey);
  }
  const operation = event.operation;
  if (typeof operation !== "string" || !OPERATION_PATTERN.test(operation)) {
    fail("operation", 'a name of letters, digits, "-" or "_" up to 64 characters, e.g. "charge"', operation);
  }
  const messageId = requireText(event, "messageId", "messageId", "the SQS messageId of the record");
  const receiveCount = event.receiveCount;
  if (receiveCount !== undefined && (!Number.isSafeInteger(receiveCount) || (receiveCount as number) < 1)) {
    fail("receiveCount", "a whole number >= 1 (pass $number(attributes.ApproximateReceiveCount)) or no field", receiveCount);
  }
  const payload = validatePayload(event.payload);
  return {
    businessKey,
    operation,
    messageId,
    ...(receiveCount === undefined ? {} : { receiveCount: receiveCount as number }),
    payload,
  };
}
