import { ValidationError } from "../src/errors";
import { validatePipelineEvent } from "../src/validate";
import { payloadHash } from "@effectively-once/contract";
import { effectiveRules } from "@effectively-once/contract";

const CONTRACT = {
  fieldRules: effectiveRules(["accountId", "ref"], ["amount", "currency"], {
    accountId: { type: "string", maxLength: 128 },
    ref: { type: "string", maxLength: 128 },
    amount: { type: "integer", minimum: 1 },
    currency: { type: "string", pattern: "^[A-Z]{3}$" },
  }),
  payloadFields: ["amount", "currency"],
};

const valid = {
  businessKey: '["a1","r-42"]',
  operation: "deposit",
  messageId: "m-1",
  receiveCount: 1,
  payload: { accountId: "a1", ref: "r-42", amount: 1250, currency: "EUR" },
};

function errorOf(event: unknown): ValidationError {
  try {
    validatePipelineEvent(event, CONTRACT);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("Function: validatePipelineEvent", () => {
  it("accepts a valid event, keeps extra payload fields and adds the canonical payload hash", () => {
    // Arrange
    const event = { ...valid, payload: { ...valid.payload, note: "first" } };

    // Act
    const result = validatePipelineEvent(event, CONTRACT);

    // Assert
    expect(result).toEqual({ ...event, payloadHash: payloadHash(event.payload, CONTRACT.payloadFields) });
    expect(result.payloadHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts an event without receiveCount", () => {
    // Arrange
    const { receiveCount: _omitted, ...event } = valid;

    // Act
    const result = validatePipelineEvent(event, CONTRACT);

    // Assert
    expect(result).not.toHaveProperty("receiveCount");
  });

  it.each<[string, unknown, RegExp]>([
    ["event", "not an object", /expected an object/],
    ["businessKey", { ...valid, businessKey: "" }, /canonical key text/],
    ["businessKey", { ...valid, businessKey: "k".repeat(1025) }, /at most 1024 bytes/],
    ["operation", { ...valid, operation: "deposit#2" }, /e\.g\. "charge"/],
    ["messageId", { ...valid, messageId: undefined }, /got nothing/],
    ["receiveCount", { ...valid, receiveCount: "2" }, /\$number\(attributes\.ApproximateReceiveCount\)/],
    ["firstSentAt", { ...valid, firstSentAt: "1733385600000" }, /epoch milliseconds of the message's first send/],
    ["payload", { ...valid, payload: JSON.stringify(valid.payload) }, /\$parse\(body\)/],
    ["payload.accountId", { ...valid, payload: { ...valid.payload, accountId: undefined } }, /a string of 1 to 128 characters, got nothing/],
    ["payload.accountId", { ...valid, payload: { ...valid.payload, accountId: 4242 } }, /got 4242/],
    ["payload.ref", { ...valid, payload: { ...valid.payload, ref: 42 } }, /got 42/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 12.5 } }, /an integer >= 1/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 0 } }, /got 0/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: "1250" } }, /got "1250"/],
    // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 spelled as a literal is the value under test
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 9007199254740993 } }, /^amount: an integer beyond 2\^53 - 1.*send it as a string$/],
    ["payload.currency", { ...valid, payload: { ...valid.payload, currency: "eur" } }, /matching \/\^\[A-Z\]\{3\}\$\//],
  ])("names %s and the fix", (field, event, fix) => {
    // Act
    const error = errorOf(event);

    // Assert
    expect(error.name).toBe("ValidationError");
    expect(error.field).toBe(field);
    expect(error.message).toMatch(/: (expected|an integer beyond)/);
    expect(error.message).toMatch(fix);
  });
});
