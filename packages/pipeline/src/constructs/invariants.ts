import { assertKeyExpression } from "../contract/business-key";
import { ContractConfigError } from "../contract/errors";
import { assertFieldRules, fieldNameProblem, FieldType } from "../contract/field-rules";
import { DLQ_MAX_MESSAGE_BYTES, MAX_MESSAGE_BYTES, QUARANTINE_ATTRIBUTE_BYTES } from "../contract/limits";
import { InvalidPropError } from "./errors";
import { lambdaAttempts, type ResolvedPipelineProps } from "./props";
import { assertRetentionInvariants } from "./retention";
import { assertTimingInvariants } from "./timing";

const NAME_PREFIX = /^[A-Za-z0-9_-]{1,40}$/;
/** Express workflows run at most 5 minutes (AWS). */
const EXPRESS_MAX_SECONDS = 300;
/**
 * Records per batch. The whole batch is one execution input: a pipe hands a Step Functions target at most
 * 262,144 characters, cutting a batch short when its records are larger (AWS: Pipes batching), so any batch size
 * up to 10 is safe as long as one record fits (`maxMessageBytes`).
 */
const MAX_BATCH = 10;
const KEY_PART_TYPES = new Set<string>([FieldType.String, FieldType.Integer, FieldType.Number, FieldType.StringOrInteger]);

/** The contract's own checks (key expression, field rules) as prop errors. */
function contractRule(check: () => void): void {
  try {
    check();
  } catch (error) {
    if (!(error instanceof ContractConfigError)) throw error;
    throw new InvalidPropError(error.prop, error.value, error.reason, error.fix);
  }
}

function integerIn(prop: string, value: number, min: number, max: number, fix: string): void {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidPropError(prop, value, `must be a whole number from ${min} to ${max}`, fix);
  }
}

/** Text spliced into the Terraform JSON must not start a Terraform interpolation or directive. */
function terraformSafe(prop: string, value: string): void {
  if (value.includes("${") || value.includes("%{")) {
    throw new InvalidPropError(prop, value, "contains '${' or '%{', which Terraform would read as a template", "remove them or write '$${' / '%%{'");
  }
}

/**
 * Checks what AWS would reject or what breaks a guarantee, before anything is synthesized.
 * Each error names the prop, the value and the fix.
 */
export function assertPipelineInvariants(p: ResolvedPipelineProps): void {
  assertTargetMode(p.stateMachineType, p.invocationType);
  if (!NAME_PREFIX.test(p.namePrefix)) {
    throw new InvalidPropError("namePrefix", p.namePrefix, "is not a valid name prefix", "use 1-40 letters, digits, '-' or '_'");
  }
  if (p.businessKey.expression.trim() === "") {
    throw new InvalidPropError("businessKey.expression", p.businessKey.expression, "is empty", "give the key parts as a JSONata expression over the body, an array such as \"[tenantId, orderId]\"");
  }
  terraformSafe("businessKey.expression", p.businessKey.expression);
  contractRule(() => assertKeyExpression(p.businessKey.expression));
  // Names first: the rules below look fields up by name.
  for (const [prop, fields] of [["businessKey.requiredFields", p.businessKey.requiredFields], ["payloadFields", p.payloadFields]] as const) {
    for (const field of fields) {
      const problem = fieldNameProblem(field);
      if (problem) throw new InvalidPropError(prop, field, problem.reason, problem.fix);
      terraformSafe(prop, field);
    }
  }
  contractRule(() => assertFieldRules(p.fieldRules));
  for (const [field, rule] of Object.entries(p.fieldRules)) {
    terraformSafe("fieldRules", field);
    if (rule.type === FieldType.String && rule.pattern !== undefined) terraformSafe(`fieldRules.${field}.pattern`, rule.pattern);
  }
  if (p.function.conflictErrors.some((name) => name.startsWith("States."))) {
    throw new InvalidPropError("function.conflictErrors", p.function.conflictErrors, "lists a Step Functions error, not a function error", "list only errorType names the function throws");
  }
  for (const field of p.businessKey.requiredFields) {
    const rule = Object.prototype.hasOwnProperty.call(p.fieldRules, field) ? p.fieldRules[field] : undefined;
    if (rule && !KEY_PART_TYPES.has(rule.type)) {
      throw new InvalidPropError(`fieldRules.${field}.type`, rule.type, "is not a key part type (the field is a key field)", "use string, integer, number or string-or-integer");
    }
  }
  if (p.businessKey.requiredFields.length === 0) {
    throw new InvalidPropError("businessKey.requiredFields", p.businessKey.requiredFields, "is empty", "list the body fields the key expression reads, e.g. [\"tenantId\", \"orderId\"]");
  }
  if (p.payloadFields.length === 0) {
    throw new InvalidPropError("payloadFields", p.payloadFields, "is empty", "list the body fields whose change means a different request, e.g. [\"amount\", \"currency\"]");
  }
  if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(p.operation)) {
    throw new InvalidPropError("operation", p.operation, "is not a valid operation name", "start with a letter, then up to 63 letters, digits, '_' or '-', e.g. \"charge\"");
  }
  for (const name of p.function.permanentErrors) {
    if (name.startsWith("States.")) {
      throw new InvalidPropError("function.permanentErrors", name, "is a Step Functions error, not a function error", "list only errorType names the function throws");
    }
  }

  integerIn("batchSize", p.batchSize, 1, MAX_BATCH, `use 1-${MAX_BATCH}: the batch is one Step Functions input, capped at 256 KiB`);
  integerIn("maximumBatchingWindowSeconds", p.maximumBatchingWindowSeconds, 0, 300, "use 0-300 seconds (Pipes' limit)");
  integerIn("maxConcurrency", p.maxConcurrency, 1, 40, "use 1-40 (inline Map runs at most 40 iterations at once)");
  integerIn("executionTimeoutSeconds", p.executionTimeoutSeconds, 1, EXPRESS_MAX_SECONDS, "EXPRESS workflows run at most 300 seconds");
  integerIn("function.timeoutSeconds", p.function.timeoutSeconds, 1, 900, "Lambda allows 1-900 seconds");
  integerIn("function.memoryMb", p.function.memoryMb, 128, 10240, "Lambda allows 128-10240 MB");
  integerIn("lambdaRetries", p.lambdaRetries, 0, 10, "use 0-10 retries of Lambda service errors");
  integerIn("maxReceiveCount", p.maxReceiveCount, 5, 1000, "use at least 5, so a throttled or briefly failing message is not sent to the DLQ too early");
  integerIn("messageRetentionSeconds", p.messageRetentionSeconds, 60, 1209600, "SQS allows 60-1209600 seconds");
  integerIn("deadLetterRetentionSeconds", p.deadLetterRetentionSeconds, 60, 1209600, "SQS allows 60-1209600 seconds");
  integerIn(
    "maxMessageBytes",
    p.maxMessageBytes,
    1024,
    MAX_MESSAGE_BYTES,
    `use at most ${MAX_MESSAGE_BYTES}: one record, JSON-escaped, must fit the 262,144 characters a pipe hands Step Functions`,
  );
  if (p.maxMessageBytes + QUARANTINE_ATTRIBUTE_BYTES > DLQ_MAX_MESSAGE_BYTES) {
    throw new InvalidPropError("maxMessageBytes", p.maxMessageBytes, "leaves no room for the quarantine's attributes in the DLQ", `use at most ${DLQ_MAX_MESSAGE_BYTES - QUARANTINE_ATTRIBUTE_BYTES}`);
  }
  integerIn("visibilityTimeoutSeconds", p.visibilityTimeoutSeconds, 0, 43200, "SQS allows 0-43200 seconds");
  integerIn("logRetentionDays", p.logRetentionDays, 1, 3653, "use a CloudWatch Logs retention such as 14");
  // The source queue's retention bound counts it (retention.ts), so it must be a number.
  integerIn("oldestMessageAgeAlarmSeconds", p.oldestMessageAgeAlarmSeconds, 1, 1209600, "use an age in seconds such as 600");
  if (p.maximumBatchingWindowSeconds > p.executionTimeoutSeconds * 5) {
    throw new InvalidPropError("maximumBatchingWindowSeconds", p.maximumBatchingWindowSeconds, "is much longer than a batch may run", "keep the window short (seconds); latency grows with it");
  }

  const minVisibility = 6 * p.executionTimeoutSeconds;
  if (p.visibilityTimeoutSeconds < minVisibility) {
    throw new InvalidPropError(
      "visibilityTimeoutSeconds",
      p.visibilityTimeoutSeconds,
      `is below 6 × executionTimeoutSeconds (${minVisibility}); a message could reappear while its batch still runs`,
      `set visibilityTimeoutSeconds >= ${minVisibility} or lower executionTimeoutSeconds`,
    );
  }
  const minLease = p.function.timeoutSeconds * lambdaAttempts(p);
  if (p.leaseSeconds < minLease) {
    throw new InvalidPropError(
      "leaseSeconds",
      p.leaseSeconds,
      `is below function.timeoutSeconds × attempts (${p.function.timeoutSeconds} × ${lambdaAttempts(p)} = ${minLease}); another message could take over a key whose invocation still runs`,
      `set leaseSeconds >= ${minLease}, or lower function.timeoutSeconds or lambdaRetries`,
    );
  }
  const { intervalSeconds, maxAttempts, backoffRate } = p.ledgerRetry;
  integerIn("ledgerRetry.intervalSeconds", intervalSeconds, 1, 99999999, "Step Functions retries wait at least 1 second");
  integerIn("ledgerRetry.maxAttempts", maxAttempts, 0, 99999999, "use a small number such as 3");
  if (!(backoffRate >= 1)) throw new InvalidPropError("ledgerRetry.backoffRate", backoffRate, "is below 1", "use 1 or more, e.g. 2");
  assertTimingInvariants(p);
  assertRetentionInvariants(p);
}

/** The pipe's only safe target mode: a synchronous EXPRESS execution whose output reports partial failures. */
function assertTargetMode(stateMachineType: string, invocationType: string): void {
  if (stateMachineType !== "EXPRESS") {
    throw new InvalidPropError("stateMachineType", stateMachineType, "cannot be called synchronously by a pipe", "use EXPRESS");
  }
  if (invocationType !== "REQUEST_RESPONSE") {
    throw new InvalidPropError(
      "invocationType",
      invocationType,
      "would acknowledge every message before it is processed (no batchItemFailures)",
      "use REQUEST_RESPONSE",
    );
  }
}
