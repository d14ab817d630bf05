import { createHash } from "node:crypto";
import { search } from "@aws-lambda-powertools/jmespath";
import { readPaymentsConfig } from "../../examples/payments/functions/config";
import {
  EVENT_KEY_JMESPATH,
  idempotencyRecordId,
} from "../../examples/payments/functions/idempotency";
import { PAYMENTS_FIELD_RULES_ENV, PAYMENTS_RULES } from "../helpers/orders-contract";

const env = {
  IDEMPOTENCY_TABLE_NAME: "idem",
  EFFECTS_TABLE_NAME: "effects",
  IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "604800",
  PAYLOAD_FIELDS: " currency, amount ,amount",
  PIPELINE_FIELD_RULES: PAYMENTS_FIELD_RULES_ENV,
  POWERTOOLS_SERVICE_NAME: "payments",
  POWERTOOLS_LOG_LEVEL: "debug",
  AWS_LAMBDA_FUNCTION_NAME: "payments-fn",
  AWS_REGION: "eu-west-1",
};

describe("Function: readPaymentsConfig", () => {
  it("reads every variable, sorting and de-duplicating the payload fields", () => {
    // Act
    const config = readPaymentsConfig(env);

    // Assert
    expect(config).toEqual({
      idempotencyTableName: "idem",
      effectsTableName: "effects",
      expiresAfterSeconds: 604800,
      payloadFields: ["amount", "currency"],
      fieldRules: PAYMENTS_RULES,
      serviceName: "payments",
      logLevel: "DEBUG",
      functionName: "payments-fn",
      region: "eu-west-1",
    });
  });

  it.each([
    "IDEMPOTENCY_TABLE_NAME",
    "EFFECTS_TABLE_NAME",
    "IDEMPOTENCY_EXPIRES_AFTER_SECONDS",
    "PAYLOAD_FIELDS",
    "POWERTOOLS_SERVICE_NAME",
    "AWS_LAMBDA_FUNCTION_NAME",
    "AWS_REGION",
  ])("fails naming %s when it is missing", (name) => {
    // Arrange
    const missing = { ...env, [name]: undefined };

    // Act / Assert
    expect(() => readPaymentsConfig(missing)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", variable: name, message: expect.stringContaining(name) }),
    );
  });

  it.each<[string, string, RegExp]>([
    ["IDEMPOTENCY_EXPIRES_AFTER_SECONDS", "1h", /positive whole number/],
    ["IDEMPOTENCY_EXPIRES_AFTER_SECONDS", "0", /positive whole number/],
    ["PAYLOAD_FIELDS", "amount,,currency", /without empty entries/],
    ["POWERTOOLS_LOG_LEVEL", "LOUD", /one of TRACE, DEBUG/],
    ["PIPELINE_FIELD_RULES", "{", /is not JSON/],
    ["PIPELINE_FIELD_RULES", '{"amount":{"type":"integer"}}', /list of \[field, rule\] pairs/],
    ["PIPELINE_FIELD_RULES", '[["amount",{"type":"decimal"}]]', /not a field type/],
  ])("fails naming %s when it is %p", (name, value, fix) => {
    // Act / Assert
    expect(() => readPaymentsConfig({ ...env, [name]: value })).toThrow(
      expect.objectContaining({ variable: name, message: expect.stringMatching(fix) }),
    );
  });

  it("defaults the log level to INFO", () => {
    // Act
    const config = readPaymentsConfig({ ...env, POWERTOOLS_LOG_LEVEL: undefined });

    // Assert
    expect(config.logLevel).toBe("INFO");
  });
});

describe("Function: idempotencyRecordId", () => {
  it("is <function>#base64(md5(JSON of [businessKey, operation])), the key Powertools derives", () => {
    // Arrange
    const selection = search(EVENT_KEY_JMESPATH, { businessKey: "t1#o-42", operation: "charge", payload: {} });

    // Act
    const id = idempotencyRecordId("payments-fn", "t1#o-42", "charge");

    // Assert
    expect(selection).toEqual(["t1#o-42", "charge"]);
    const digest = createHash("md5").update('["t1#o-42","charge"]').digest("base64");
    expect(id).toBe(`payments-fn#${digest}`);
  });
});
