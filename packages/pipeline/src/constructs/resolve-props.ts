/** The defaults of {@link IdempotentPipelineProps} and their resolution into what the construct's parts read. */
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "@effectively-once/contract";
import { effectiveRules, type FieldRule } from "@effectively-once/contract";
import { secondLayerEnvironment } from "@effectively-once/contract";
import { UNKNOWN_TARGET, type DeployTarget } from "./deploy-target";
import { FIFO_DEFAULTS } from "./fifo-props";
import { resolveEncryption } from "./encryption";
import { DEFAULT_RUNTIME } from "./lambda-runtime";
import { resolveQueueAccess } from "./queue-access-props";
import { functionResourceName } from "./resource-names";
import { StateMachineLogLevel, type IdempotentPipelineProps, type ResolvedPipelineProps } from "./props";

export const DEFAULTS = {
  operation: "process",
  functionName: "worker",
  functionTimeoutSeconds: 10,
  functionMemoryMb: 256,
  batchSize: 10,
  maximumBatchingWindowSeconds: 1,
  // One invocation per batch, standard mode's default: a record may wait for the batch's invocation and then for its
  // own (the fallback), so the worst execution holds two invocations (src/constructs/timing.ts): with the defaults
  // below, claim phase 45 + batch invoke 63 + settle 73 + fate metrics 2 = 183 s. The visibility timeout follows
  // (6 × 190 = 1,140 s), and the lease (190 s ≥ 2 × 10 × 3).
  executionTimeoutSeconds: 190,
  // Per record (batchInvocation: false): the worst execution is 117 s, one record's 115 s (three invocation attempts of
  // a cold start's Init (10 s) + the function's 10 s, and the ledger's retry waits) + the fate metrics call's 2 s.
  perRecordExecutionTimeoutSeconds: 120,
  visibilityTimeoutFactor: 6,
  maxReceiveCount: 5,
  messageRetentionSeconds: 4 * 24 * 3600,
  deadLetterRetentionSeconds: 14 * 24 * 3600,
  // A batch of 10 at the stated worst case fits StartSyncExecution's input (limits.ts; 6,520 is the most).
  maxMessageBytes: 6 * 1024,
  permanentErrors: PERMANENT_ERROR_NAMES,
  conflictErrors: CONFLICT_ERROR_NAMES,
  // As long as the DLQ keeps a copy (its original enqueue time survives the move), so a redrive stays safe.
  retentionSeconds: 14 * 24 * 3600,
  lambdaRetries: 2,
  ledgerRetry: { intervalSeconds: 1, maxAttempts: 3, backoffRate: 2 },
  logRetentionDays: 14,
  oldestMessageAgeAlarmSeconds: 600,
  deadLetterExpiryWarningSeconds: 24 * 3600,
  plannedPartialBatchRatio: 0.2,
} as const;

export function resolveProps(p: IdempotentPipelineProps, target: DeployTarget = UNKNOWN_TARGET): ResolvedPipelineProps {
  const functionName = p.function.name ?? DEFAULTS.functionName;
  const fifo = p.fifo ?? false;
  // Standard mode invokes once per batch unless opted out; FIFO keeps one invocation per record (batch-rules.ts
  // refuses only an explicit true there).
  const batchInvocation = p.batchInvocation ?? !fifo;
  const executionTimeoutSeconds =
    p.executionTimeoutSeconds ??
    (fifo ? FIFO_DEFAULTS.executionTimeoutSeconds : batchInvocation ? DEFAULTS.executionTimeoutSeconds : DEFAULTS.perRecordExecutionTimeoutSeconds);
  const batchSize = p.batchSize ?? (fifo ? FIFO_DEFAULTS.batchSize : DEFAULTS.batchSize);
  const messageRetentionSeconds = p.messageRetentionSeconds ?? DEFAULTS.messageRetentionSeconds;
  const deadLetterRetentionSeconds = p.deadLetterRetentionSeconds ?? DEFAULTS.deadLetterRetentionSeconds;
  return {
    namePrefix: p.namePrefix,
    businessKey: p.businessKey,
    operation: p.operation ?? DEFAULTS.operation,
    payloadFields: p.payloadFields,
    fieldRules: p.fieldRules ?? {},
    function: {
      name: functionName,
      entry: p.function.entry,
      timeoutSeconds: p.function.timeoutSeconds ?? DEFAULTS.functionTimeoutSeconds,
      memoryMb: p.function.memoryMb ?? DEFAULTS.functionMemoryMb,
      runtime: p.function.runtime ?? DEFAULT_RUNTIME,
      environment: p.function.environment ?? {},
      policyStatements: p.function.policyStatements ?? [],
      permanentErrors: [...new Set([...DEFAULTS.permanentErrors, ...(p.function.permanentErrors ?? [])])],
      conflictErrors: [...new Set([...DEFAULTS.conflictErrors, ...(p.function.conflictErrors ?? [])])],
      logLevel: p.function.logLevel ?? "INFO",
      reservedConcurrency: p.function.reservedConcurrency,
      legacyIdempotencyKeyPrefix: p.function.legacyIdempotencyKeyPrefix ?? functionResourceName(p.namePrefix, functionName),
    },
    stateMachineType: p.stateMachineType ?? "EXPRESS",
    invocationType: p.invocationType ?? "REQUEST_RESPONSE",
    batchSize,
    maximumBatchingWindowSeconds: p.maximumBatchingWindowSeconds ?? (fifo ? 0 : DEFAULTS.maximumBatchingWindowSeconds),
    filterPatterns: p.filterPatterns ?? [],
    maxConcurrency: p.maxConcurrency ?? batchSize,
    batchInvocation,
    executionTimeoutSeconds,
    visibilityTimeoutSeconds: p.visibilityTimeoutSeconds ?? DEFAULTS.visibilityTimeoutFactor * executionTimeoutSeconds,
    maxReceiveCount: p.maxReceiveCount ?? DEFAULTS.maxReceiveCount,
    messageRetentionSeconds,
    deadLetterRetentionSeconds,
    maxMessageBytes: p.maxMessageBytes ?? DEFAULTS.maxMessageBytes,
    leaseSeconds: p.leaseSeconds ?? executionTimeoutSeconds,
    // FIFO: a DLQ copy's retention restarts at the move (retention.ts), so a copy lives up to both retentions.
    retentionSeconds: p.retentionSeconds ?? (fifo ? Math.max(DEFAULTS.retentionSeconds, messageRetentionSeconds + deadLetterRetentionSeconds) : DEFAULTS.retentionSeconds),
    lambdaRetries: p.lambdaRetries ?? DEFAULTS.lambdaRetries,
    ledgerRetry: p.ledgerRetry ?? DEFAULTS.ledgerRetry,
    logRetentionDays: p.logRetentionDays ?? DEFAULTS.logRetentionDays,
    stateMachineLogLevel: p.stateMachineLogLevel ?? StateMachineLogLevel.Error,
    includeExecutionDataInLogs: p.includeExecutionDataInLogs ?? false,
    tracing: p.tracing ?? true,
    pointInTimeRecovery: p.pointInTimeRecovery ?? true,
    deletionProtection: p.deletionProtection ?? true,
    alarmActions: p.alarmActions ?? [],
    alarmTopic: p.alarmActions === undefined,
    queueEditAlert: p.queueEditAlert ?? true,
    // A day, or less when the retentions leave less, so that the dlq-expiry alarm keeps at least an hour's threshold.
    deadLetterExpiryWarningSeconds:
      p.deadLetterExpiryWarningSeconds ?? Math.max(3600, Math.min(DEFAULTS.deadLetterExpiryWarningSeconds, deadLetterRetentionSeconds - (fifo ? 0 : messageRetentionSeconds) - 3600)),
    plannedPartialBatchRatio: p.plannedPartialBatchRatio ?? DEFAULTS.plannedPartialBatchRatio,
    oldestMessageAgeAlarmSeconds: p.oldestMessageAgeAlarmSeconds ?? DEFAULTS.oldestMessageAgeAlarmSeconds,
    outputPrefix: p.outputPrefix ?? "",
    allowUnguardedDlqMoves: p.allowUnguardedDlqMoves ?? false,
    allowQueuePurge: p.allowQueuePurge ?? false,
    queueAccess: resolveQueueAccess(p.queueAccess),
    fifo,
    contentBasedDeduplication: p.contentBasedDeduplication ?? false,
    highThroughputFifo: p.highThroughputFifo ?? false,
    region: p.region,
    permissionsBoundary: p.permissionsBoundary,
    encryption: resolveEncryption(p.encryption),
    target,
  };
}

/** Every field the pipeline checks, with its rule, in the order both layers check them. */
export function pipelineFieldRules(p: ResolvedPipelineProps): [string, FieldRule][] {
  return effectiveRules(p.businessKey.requiredFields, p.payloadFields, p.fieldRules);
}

/** The function's second-layer id variables (function-env.ts), which the stack's outputs repeat for `ops`. */
export function functionSecondLayerEnvironment(p: ResolvedPipelineProps): Record<string, string> {
  const legacy = p.function.legacyIdempotencyKeyPrefix;
  return secondLayerEnvironment(legacy === false ? undefined : legacy);
}
