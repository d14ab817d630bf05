import { createHash } from "node:crypto";
import { search } from "@aws-lambda-powertools/jmespath";
import { readPipelineConfig } from "../src/config";
import { EVENT_KEY_JMESPATH, idempotencyRecordId } from "../src/idempotency";
import { encodeFieldRules, encodePayloadFields, rejectionErrorsEnvironment, secondLayerEnvironment } from "@effectively-once/contract";
import { legacySecondLayerIds } from "@effectively-once/contract";
import { DEPOSIT_RULES } from "./support/deposit";

const env = {
  IDEMPOTENCY_TABLE_NAME: "idem",
  IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "604800",
  PAYLOAD_FIELDS: encodePayloadFields(["currency", "amount", "amount"]),
  PIPELINE_FIELD_RULES: encodeFieldRules(DEPOSIT_RULES),
  POWERTOOLS_SERVICE_NAME: "deposits",
  POWERTOOLS_LOG_LEVEL: "debug",
  ...secondLayerEnvironment(),
  AWS_LAMBDA_FUNCTION_NAME: "deposit-fn",
  AWS_REGION: "eu-west-1",
};

describe("Function: readPipelineConfig", () => {
  it("reads every variable, sorting and de-duplicating the payload fields", () => {
    // Act
    const config = readPipelineConfig(env);

    // Assert
    expect(config).toEqual({
      idempotencyTableName: "idem",
      expiresAfterSeconds: 604800,
      payloadFields: ["amount", "currency"],
      fieldRules: DEPOSIT_RULES,
      serviceName: "deposits",
      logLevel: "DEBUG",
      secondLayerIds: { keyPrefix: "effectively-once.v1", hashFunction: "sha256" },
      batchConcurrency: 10,
      region: "eu-west-1",
      rejectionErrors: [],
    });
  });

  it("reads PIPELINE_REJECTION_ERRORS as the construct writes it (the names a stack adds), none when unset", () => {
    // Act
    const config = readPipelineConfig({ ...env, ...rejectionErrorsEnvironment(["PipelineRejected", "CardDeclined"], ["IdempotencyValidationError", "AlreadyCaptured"]) });

    // Assert: the contract's own names are known by their class, so only the added ones travel.
    expect(config.rejectionErrors).toEqual(["AlreadyCaptured", "CardDeclined"]);
    expect(rejectionErrorsEnvironment(["PipelineRejected"], ["IdempotencyValidationError", "PipelineConflict"])).toEqual({});
  });

  it("reads PIPELINE_BATCH_CONCURRENCY when set", () => {
    // Act
    const config = readPipelineConfig({ ...env, PIPELINE_BATCH_CONCURRENCY: "3" });

    // Assert
    expect(config.batchConcurrency).toBe(3);
  });

  it.each([
    "IDEMPOTENCY_TABLE_NAME",
    "IDEMPOTENCY_EXPIRES_AFTER_SECONDS",
    "PAYLOAD_FIELDS",
    "PIPELINE_FIELD_RULES",
    "POWERTOOLS_SERVICE_NAME",
    "IDEMPOTENCY_KEY_PREFIX",
    "IDEMPOTENCY_HASH_FUNCTION",
    "AWS_REGION",
  ])("fails naming %s when it is missing", (name) => {
    // Arrange
    const missing = { ...env, [name]: undefined };

    // Act / Assert
    expect(() => readPipelineConfig(missing)).toThrow(
      expect.objectContaining({ name: "ConfigurationError", variable: name, message: expect.stringContaining(name) }),
    );
  });

  it.each<[string, string, RegExp]>([
    ["IDEMPOTENCY_EXPIRES_AFTER_SECONDS", "1h", /positive whole number/],
    ["IDEMPOTENCY_EXPIRES_AFTER_SECONDS", "0", /positive whole number/],
    ["PIPELINE_BATCH_CONCURRENCY", "0", /positive whole number/],
    ["PIPELINE_REJECTION_ERRORS", "CardDeclined", /is not JSON.*\["InsufficientFunds"\]/],
    ["PIPELINE_REJECTION_ERRORS", '["CardDeclined", 1]', /JSON array of error names/],
    // The comma-joined form of old: it cannot carry a field name holding a comma, so it is refused, not split.
    ["PAYLOAD_FIELDS", "amount,currency", /is not JSON.*\["amount","currency"\]/],
    ["PAYLOAD_FIELDS", "[]", /non-empty JSON array/],
    ["PAYLOAD_FIELDS", '["amount", 1]', /non-empty JSON array/],
    ["PAYLOAD_FIELDS", '["amount", ""]', /not a field name/],
    ["PAYLOAD_FIELDS", '["constructor"]', /Object\.prototype/],
    ["PAYLOAD_FIELDS", '["amount\\u0000"]', /control character \(U\+0000\)/],
    ["POWERTOOLS_LOG_LEVEL", "LOUD", /one of TRACE, DEBUG/],
    ["PIPELINE_FIELD_RULES", "{", /is not JSON/],
    ["PIPELINE_FIELD_RULES", '{"amount":{"type":"integer"}}', /list of \[field, rule\] pairs/],
    ["PIPELINE_FIELD_RULES", '[["amount",{"type":"decimal"}]]', /not a field type/],
    ["PIPELINE_FIELD_RULES", '[["__proto__",{"type":"any"}]]', /Object\.prototype/],
    // A digest a producer could make two keys share.
    ["IDEMPOTENCY_HASH_FUNCTION", "md5", /one of sha256, sha384, sha512/],
    ["IDEMPOTENCY_HASH_FUNCTION", "SHA1", /one of sha256, sha384, sha512/],
  ])("fails naming %s when it is %p", (name, value, fix) => {
    // Act / Assert
    expect(() => readPipelineConfig({ ...env, [name]: value })).toThrow(
      expect.objectContaining({ variable: name, message: expect.stringMatching(fix) }),
    );
  });

  it("reads back a payload field holding a comma, a quote or a backslash as the one field the construct sent", () => {
    // Arrange
    const fields = ["amount,currency", 'say"hi"', "a\\b", "amount"];

    // Act
    const config = readPipelineConfig({ ...env, PAYLOAD_FIELDS: encodePayloadFields(fields) });

    // Assert
    expect(config.payloadFields).toEqual([...fields].sort());
  });

  it("reads the earlier releases' prefix as their ids (the function's name, MD5), only when it is set", () => {
    // Act
    const during = readPipelineConfig({ ...env, IDEMPOTENCY_LEGACY_KEY_PREFIX: "deposits-worker" });
    const after = readPipelineConfig({ ...env, IDEMPOTENCY_LEGACY_KEY_PREFIX: " " });

    // Assert
    expect(during.legacySecondLayerIds).toEqual({ keyPrefix: "deposits-worker", hashFunction: "md5" });
    expect(after.legacySecondLayerIds).toBeUndefined();
    expect(readPipelineConfig(env).legacySecondLayerIds).toBeUndefined();
  });

  it("names its records the same whatever the function is called (Lambda's AWS_LAMBDA_FUNCTION_NAME is not read)", () => {
    // Act
    const renamed = readPipelineConfig({ ...env, AWS_LAMBDA_FUNCTION_NAME: "deposits-worker-v2" });
    const unnamed = readPipelineConfig({ ...env, AWS_LAMBDA_FUNCTION_NAME: undefined });

    // Assert
    expect(renamed).toEqual(readPipelineConfig(env));
    expect(unnamed).toEqual(readPipelineConfig(env));
  });

  it("defaults the log level to INFO", () => {
    // Act
    const config = readPipelineConfig({ ...env, POWERTOOLS_LOG_LEVEL: undefined });

    // Assert
    expect(config.logLevel).toBe("INFO");
  });
});

describe("Function: idempotencyRecordId", () => {
  it("is effectively-once.v1#base64(sha256(JSON of [businessKey, operation])), the key Powertools derives", () => {
    // Arrange
    const selection = search(EVENT_KEY_JMESPATH, { businessKey: '["a1","r-42"]', operation: "deposit", payload: {} });

    // Act
    const id = idempotencyRecordId('["a1","r-42"]', "deposit");

    // Assert
    expect(selection).toEqual(['["a1","r-42"]', "deposit"]);
    const digest = createHash("sha256").update('["[\\"a1\\",\\"r-42\\"]","deposit"]').digest("base64");
    expect(id).toBe(`effectively-once.v1#${digest}`);
  });

  it("gives the earlier releases' id for their form: <function>#base64(md5(...))", () => {
    // Act
    const id = idempotencyRecordId('["a1","r-42"]', "deposit", legacySecondLayerIds("deposit-fn"));

    // Assert
    const digest = createHash("md5").update('["[\\"a1\\",\\"r-42\\"]","deposit"]').digest("base64");
    expect(id).toBe(`deposit-fn#${digest}`);
  });
});
