import { ValidationError } from "../../functions/errors";
import { validatePaymentEvent } from "../../examples/payments/functions/validate";
import { PAYMENTS_CONTRACT } from "../helpers/orders-contract";

const valid = {
  businessKey: '["t1","o-42"]',
  operation: "charge",
  messageId: "m-1",
  receiveCount: 1,
  payload: { tenantId: "t1", orderId: "o-42", amount: 1250, currency: "EUR" },
};

function errorOf(event: unknown): ValidationError {
  try {
    validatePaymentEvent(event, PAYMENTS_CONTRACT);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a ValidationError");
}

describe("Function: validatePaymentEvent", () => {
  it("accepts a valid event and keeps extra payload fields", () => {
    // Arrange
    const event = { ...valid, payload: { ...valid.payload, note: "first order" } };

    // Act
    const result = validatePaymentEvent(event, PAYMENTS_CONTRACT);

    // Assert
    expect(result.event).toEqual(event);
    expect(result.payloadHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("accepts an event without receiveCount", () => {
    // Arrange
    const { receiveCount: _omitted, ...event } = valid;

    // Act
    const result = validatePaymentEvent(event, PAYMENTS_CONTRACT);

    // Assert
    expect(result.event).not.toHaveProperty("receiveCount");
  });

  it.each<[string, unknown, RegExp]>([
    ["event", "not an object", /expected an object/],
    ["businessKey", { ...valid, businessKey: "" }, /canonical key text/],
    ["businessKey", { ...valid, businessKey: "k".repeat(1025) }, /at most 1024 bytes/],
    ["operation", { ...valid, operation: "charge#2" }, /e\.g\. "charge"/],
    ["messageId", { ...valid, messageId: undefined }, /got nothing/],
    ["receiveCount", { ...valid, receiveCount: "2" }, /\$number\(attributes\.ApproximateReceiveCount\)/],
    ["payload", { ...valid, payload: JSON.stringify(valid.payload) }, /\$parse\(body\)/],
    ["payload.tenantId", { ...valid, payload: { ...valid.payload, tenantId: undefined } }, /a string of 1 to 128 characters, got nothing/],
    ["payload.tenantId", { ...valid, payload: { ...valid.payload, tenantId: 4242 } }, /got 4242/],
    ["payload.orderId", { ...valid, payload: { ...valid.payload, orderId: 42 } }, /got 42/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 12.5 } }, /an integer >= 1/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 0 } }, /got 0/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: "1250" } }, /got "1250"/],
    ["payload.amount", { ...valid, payload: { ...valid.payload, amount: 9007199254740993 } }, /^amount: an integer beyond 2\^53 - 1.*send it as a string$/],
    ["payload.currency", { ...valid, payload: { ...valid.payload, currency: "eur" } }, /matching \/\^\[A-Z\]\{3\}\$\//],
    ["payload.currency", { ...valid, payload: { ...valid.payload, currency: "EURO" } }, /got "EURO"/],
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
