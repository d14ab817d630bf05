import { assertKeyExpression, OPERATION_PATTERN } from "@effectively-once/contract";
import { ContractConfigError } from "@effectively-once/contract";
import { assertFieldRules, fieldNameProblem, FieldType } from "@effectively-once/contract";
import { REDRIVE_ATTRIBUTE_BYTES, SQS_MAX_MESSAGE_BYTES } from "@effectively-once/contract";
import { LAMBDA_MEMORY_MB, LAMBDA_TIMEOUT_SECONDS } from "./aws-limits";
import { ALARM_RULES } from "./alarm-rules";
import { AWS_NAME_RULES } from "./aws-name-rules";
import { AWS_PROP_RULES } from "./aws-prop-rules";
import { BOUNDARY_RULES } from "./boundary-rules";
import { BYTE_RULES } from "./byte-rules";
import { ENCRYPTION_RULES } from "./encryption-rules";
import { InvalidPropError, type PropProblem } from "./errors";
import { BATCH_RULES } from "./batch-rules";
import { FIFO_RULES } from "./fifo-rules";
import { FUNCTION_RULES } from "./function-rules";
import { integerIn, runPropRules, type PropRule } from "./prop-rules";
import { lambdaAttempts } from "./invocation-budget";
import type { ResolvedPipelineProps } from "./props";
import { QUEUE_ACCESS_RULES } from "./queue-access-rules";
import { REGION_RULES } from "./region-rules";
import { RETENTION_RULES } from "./retention";
import { SECOND_LAYER_RULES } from "./second-layer-rules";
import { PASS_THROUGH_RULES } from "./pass-through-rules";
import { TIMING_RULES } from "./timing";

const NAME_PREFIX = /^[A-Za-z0-9_-]{1,40}$/;
/** Express workflows run at most 5 minutes (AWS). */
const EXPRESS_MAX_SECONDS = 300;
/**
 * Records per batch. The whole batch is one execution input, bounded in bytes with `maxMessageBytes`
 * (byte-rules.ts): the pipe's own cut counts characters, which multi-byte text can carry past StartSyncExecution's
 * limit.
 */
const MAX_BATCH = 10;
/**
 * Types a key field may have: one JSON type each. A field that may hold a string or a number would make
 * `{"orderId":42}` and `{"orderId":"42"}` two keys (the canonical JSON keeps the type), so one order charged twice.
 */
const KEY_PART_TYPES = new Set<string>([FieldType.String, FieldType.Integer, FieldType.Number]);

/** The contract's own checks (key expression, field rules) as prop problems. */
function contractProblem(check: () => void): PropProblem | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    if (!(error instanceof ContractConfigError)) throw error;
    return { prop: error.prop, value: error.value, reason: error.reason, fix: error.fix };
  }
}

/** Text spliced into the Terraform JSON must not start a Terraform interpolation or directive. */
function terraformSafe(prop: string, value: string): PropProblem | undefined {
  if (!value.includes("${") && !value.includes("%{")) return undefined;
  return { prop, value, reason: "contains '${' or '%{', which Terraform would read as a template", fix: "remove them or write '$${' / '%%{'" };
}

/**
 * An added error name: the workflow matches it in ErrorEquals, and the function reads it back from
 * PIPELINE_REJECTION_ERRORS, which refuses an empty name (decodeRejectionErrors) and which the construct writes
 * unescaped (its variables hold Terraform references: function-variables.ts), so a template would be interpolated.
 */
function errorNameProblems(prop: string, names: readonly string[]): PropProblem[] {
  return names.flatMap((name): PropProblem[] => {
    if (name === "") return [{ prop, value: name, reason: "is empty: the function refuses the PIPELINE_REJECTION_ERRORS that would carry it, so every cold start fails", fix: "remove it, or give the errorType name the function throws" }];
    if (name.startsWith("States.")) return [{ prop, value: name, reason: "is a Step Functions error, not a function error", fix: "list only errorType names the function throws" }];
    return present(terraformSafe(prop, name));
  });
}

function present(...found: (PropProblem | undefined)[]): PropProblem[] {
  return found.filter((p): p is PropProblem => p !== undefined);
}

/** A range rule per prop: AWS's own limits, or the smallest safe figure. */
function range(name: string, read: (p: ResolvedPipelineProps) => number, min: number, max: number, fix: string): PropRule {
  return { name, check: (p) => integerIn(name, read(p), min, max, fix) };
}

/** The contract: target mode, names, key expression, field rules, error names. */
const CONTRACT_RULES: readonly PropRule[] = [
  { name: "stateMachineType", check: (p) => (p.stateMachineType === "EXPRESS" ? undefined : { prop: "stateMachineType", value: p.stateMachineType, reason: "cannot be called synchronously by a pipe", fix: "use EXPRESS" }) },
  {
    name: "invocationType",
    check: (p) =>
      p.invocationType === "REQUEST_RESPONSE"
        ? undefined
        : {
            prop: "invocationType",
            value: p.invocationType,
            reason:
              "would acknowledge every message before it is processed (no batchItemFailures)" +
              (p.fifo ? "; and FIFO order needs a synchronous target: the pipe must know a group's outcome before it sends more of that group" : ""),
            fix: "use REQUEST_RESPONSE",
          },
  },
  { name: "namePrefix", check: (p) => (NAME_PREFIX.test(p.namePrefix) ? undefined : { prop: "namePrefix", value: p.namePrefix, reason: "is not a valid name prefix", fix: "use 1-40 letters, digits, '-' or '_'" }) },
  {
    // Names first: the rules below look fields up by name.
    name: "fieldNames",
    check: (p) =>
      ([["businessKey.requiredFields", p.businessKey.requiredFields], ["payloadFields", p.payloadFields]] as const).flatMap(([prop, fields]) =>
        fields.flatMap((field) => {
          const problem = fieldNameProblem(field);
          return present(problem ? { prop, value: field, reason: problem.reason, fix: problem.fix } : undefined, terraformSafe(prop, field));
        }),
      ),
  },
  {
    name: "businessKey.requiredFields",
    check: (p) =>
      p.businessKey.requiredFields.length === 0
        ? { prop: "businessKey.requiredFields", value: p.businessKey.requiredFields, reason: "is empty", fix: "list the body fields the key expression reads, e.g. [\"tenantId\", \"orderId\"]" }
        : undefined,
  },
  {
    // After the names: a part must read a field that businessKey.requiredFields lists.
    name: "businessKey.expression",
    after: ["fieldNames", "businessKey.requiredFields"],
    check: (p) => {
      const expression = p.businessKey.expression;
      if (expression.trim() === "") {
        return { prop: "businessKey.expression", value: expression, reason: "is empty", fix: "give the key parts as a JSONata expression over the body, an array such as \"[tenantId, orderId]\"" };
      }
      return terraformSafe("businessKey.expression", expression) ?? contractProblem(() => assertKeyExpression(expression, p.businessKey.requiredFields));
    },
  },
  {
    name: "fieldRules",
    after: ["fieldNames"],
    check: (p) => {
      const problem = contractProblem(() => assertFieldRules(p.fieldRules));
      if (problem) return problem;
      return Object.entries(p.fieldRules).flatMap(([field, rule]) =>
        present(terraformSafe("fieldRules", field), rule.type === FieldType.String && rule.pattern !== undefined ? terraformSafe(`fieldRules.${field}.pattern`, rule.pattern) : undefined),
      );
    },
  },
  { name: "function.conflictErrors", check: (p) => errorNameProblems("function.conflictErrors", p.function.conflictErrors) },
  {
    name: "keyFieldTypes",
    after: ["fieldRules"],
    check: (p) =>
      p.businessKey.requiredFields.flatMap((field): PropProblem[] => {
        const rule = Object.prototype.hasOwnProperty.call(p.fieldRules, field) ? p.fieldRules[field] : undefined;
        if (!rule || KEY_PART_TYPES.has(rule.type)) return [];
        if (rule.type === FieldType.StringOrInteger) {
          return [{
            prop: `fieldRules.${field}.type`,
            value: rule.type,
            reason: `lets the key field ${JSON.stringify(field)} be a string or an integer, so {"${field}":42} and {"${field}":"42"} would be two keys: one business identity applied twice`,
            fix: "use string (or integer, if producers send only numbers): a message of the other type is then quarantined as invalid-message, never applied under a second key",
          }];
        }
        return [{ prop: `fieldRules.${field}.type`, value: rule.type, reason: "is not a key part type (the field is a key field)", fix: "use string, integer or number (one JSON type per key field)" }];
      }),
  },
  {
    name: "payloadFields",
    check: (p) =>
      p.payloadFields.length === 0
        ? { prop: "payloadFields", value: p.payloadFields, reason: "is empty", fix: "list the body fields whose change means a different request, e.g. [\"amount\", \"currency\"]" }
        : undefined,
  },
  {
    name: "operation",
    check: (p) =>
      OPERATION_PATTERN.test(p.operation)
        ? undefined
        : { prop: "operation", value: p.operation, reason: "is not a valid operation name", fix: "start with a letter, then up to 63 letters, digits, '_' or '-', e.g. \"charge\"" },
  },
  { name: "function.permanentErrors", check: (p) => errorNameProblems("function.permanentErrors", p.function.permanentErrors) },
];

/** AWS's limits and the smallest safe figures, one prop each. */
const RANGE_RULES: readonly PropRule[] = [
  range("batchSize", (p) => p.batchSize, 1, MAX_BATCH, `use 1-${MAX_BATCH}: the batch is one Step Functions input, capped at 256 KiB`),
  range("maximumBatchingWindowSeconds", (p) => p.maximumBatchingWindowSeconds, 0, 300, "use 0-300 seconds (Pipes' limit)"),
  range("maxConcurrency", (p) => p.maxConcurrency, 1, 40, "use 1-40 (inline Map runs at most 40 iterations at once)"),
  range("executionTimeoutSeconds", (p) => p.executionTimeoutSeconds, 1, EXPRESS_MAX_SECONDS, "EXPRESS workflows run at most 300 seconds"),
  range("function.timeoutSeconds", (p) => p.function.timeoutSeconds, LAMBDA_TIMEOUT_SECONDS.min, LAMBDA_TIMEOUT_SECONDS.max, `Lambda allows ${LAMBDA_TIMEOUT_SECONDS.min}-${LAMBDA_TIMEOUT_SECONDS.max} seconds`),
  range("function.memoryMb", (p) => p.function.memoryMb, LAMBDA_MEMORY_MB.min, LAMBDA_MEMORY_MB.max, `Lambda allows ${LAMBDA_MEMORY_MB.min}-${LAMBDA_MEMORY_MB.max} MB`),
  range("lambdaRetries", (p) => p.lambdaRetries, 0, 10, "use 0-10 retries of Lambda service errors"),
  range("maxReceiveCount", (p) => p.maxReceiveCount, 5, 1000, "use at least 5, so a throttled or briefly failing message is not sent to the DLQ too early"),
  range("messageRetentionSeconds", (p) => p.messageRetentionSeconds, 60, 1209600, "SQS allows 60-1209600 seconds"),
  range("deadLetterRetentionSeconds", (p) => p.deadLetterRetentionSeconds, 60, 1209600, "SQS allows 60-1209600 seconds"),
  range("maxMessageBytes", (p) => p.maxMessageBytes, 1024, SQS_MAX_MESSAGE_BYTES - REDRIVE_ATTRIBUTE_BYTES, `use 1024-${SQS_MAX_MESSAGE_BYTES - REDRIVE_ATTRIBUTE_BYTES} (SQS's range, less the redrive's room); the batch rule below bounds it further`),
  range("visibilityTimeoutSeconds", (p) => p.visibilityTimeoutSeconds, 0, 43200, "SQS allows 0-43200 seconds"),
  // The source queue's retention bound counts it (retention.ts), so it must be a number.
  range("oldestMessageAgeAlarmSeconds", (p) => p.oldestMessageAgeAlarmSeconds, 1, 1209600, "use an age in seconds such as 600"),
  range("ledgerRetry.intervalSeconds", (p) => p.ledgerRetry.intervalSeconds, 1, 99999999, "Step Functions retries wait at least 1 second"),
  range("ledgerRetry.maxAttempts", (p) => p.ledgerRetry.maxAttempts, 0, 99999999, "use a small number such as 3"),
  {
    name: "ledgerRetry.backoffRate",
    check: (p) => (p.ledgerRetry.backoffRate >= 1 ? undefined : { prop: "ledgerRetry.backoffRate", value: p.ledgerRetry.backoffRate, reason: "is below 1", fix: "use 1 or more, e.g. 2" }),
  },
];

/** How the windows relate: batching window, visibility timeout, lease. */
const WINDOW_RULES: readonly PropRule[] = [
  {
    name: "maximumBatchingWindowSeconds.short",
    after: ["maximumBatchingWindowSeconds", "executionTimeoutSeconds"],
    check: (p) =>
      p.maximumBatchingWindowSeconds > p.executionTimeoutSeconds * 5
        ? { prop: "maximumBatchingWindowSeconds", value: p.maximumBatchingWindowSeconds, reason: "is much longer than a batch may run", fix: "keep the window short (seconds); latency grows with it" }
        : undefined,
  },
  {
    name: "visibilityTimeoutSeconds.sixExecutions",
    after: ["executionTimeoutSeconds", "visibilityTimeoutSeconds"],
    check: (p) => {
      const minVisibility = 6 * p.executionTimeoutSeconds;
      if (p.visibilityTimeoutSeconds >= minVisibility) return undefined;
      return {
        prop: "visibilityTimeoutSeconds",
        value: p.visibilityTimeoutSeconds,
        reason: `is below 6 × executionTimeoutSeconds (${minVisibility}); a message could reappear while its batch still runs`,
        fix: `set visibilityTimeoutSeconds >= ${minVisibility} or lower executionTimeoutSeconds`,
      };
    },
  },
  {
    name: "leaseSeconds.invocation",
    after: ["function.timeoutSeconds", "lambdaRetries"],
    check: (p) => {
      // One invocation per batch: a claim waits for the batch's invocation, then perhaps for its own (the fallback).
      const invocations = p.batchInvocation && !p.fifo ? 2 : 1;
      const minLease = invocations * p.function.timeoutSeconds * lambdaAttempts(p);
      if (p.leaseSeconds >= minLease) return undefined;
      const product = `${invocations > 1 ? "2 invocations (the batch's, then the record's own) × " : ""}function.timeoutSeconds × attempts`;
      const figures = `${invocations > 1 ? "2 × " : ""}${p.function.timeoutSeconds} × ${lambdaAttempts(p)}`;
      return {
        prop: "leaseSeconds",
        value: p.leaseSeconds,
        reason: `is below ${product} (${figures} = ${minLease}); another message could take over a key whose invocation still runs`,
        fix: `set leaseSeconds >= ${minLease}, or lower function.timeoutSeconds or lambdaRetries`,
      };
    },
  },
];

/**
 * Every synth-time rule, in the order problems are reported. Rules live as data (one entry each, with the props
 * they depend on), so every problem of a configuration is reported at once and each rule is testable alone.
 */
export const PIPELINE_RULES: readonly PropRule[] = [
  ...CONTRACT_RULES,
  ...RANGE_RULES,
  ...BYTE_RULES,
  ...WINDOW_RULES,
  ...FIFO_RULES,
  ...BATCH_RULES,
  ...TIMING_RULES,
  ...RETENTION_RULES,
  ...ALARM_RULES,
  // What AWS accepts (aws-limits.ts): names, the other props AWS validates, the function, the region.
  ...AWS_NAME_RULES,
  ...AWS_PROP_RULES,
  ...QUEUE_ACCESS_RULES,
  ...FUNCTION_RULES,
  ...REGION_RULES,
  ...BOUNDARY_RULES,
  ...ENCRYPTION_RULES,
  ...SECOND_LAYER_RULES,
  // What a team passes through to AWS: its IAM statements, tags, alarm actions (pass-through-rules.ts).
  ...PASS_THROUGH_RULES,
];

/**
 * Checks what AWS would reject or what breaks a guarantee, before anything is synthesized. Throws one
 * {@link InvalidPropError} naming every prop at fault, its value and the fix.
 */
export function assertPipelineInvariants(p: ResolvedPipelineProps, stackRules: readonly PropRule[] = []): void {
  const { problems, skipped } = runPropRules([...PIPELINE_RULES, ...stackRules], p);
  if (problems.length > 0) throw InvalidPropError.of(problems, skipped);
}

/**
 * True when the synth would accept these props: the rules of {@link assertPipelineInvariants}, stopping at the first
 * problem instead of reporting them all (for a generator that draws many props and keeps the few accepted).
 */
export function pipelineAccepts(p: ResolvedPipelineProps): boolean {
  return runPropRules(PIPELINE_RULES, p, { firstOnly: true }).problems.length === 0;
}
