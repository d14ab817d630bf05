/**
 * The contract of a pipeline stack, framework-free: what the state machine, the function, the local cloud, the operator
 * CLI and the tools agree on. Every rule has one owner here; where the state machine needs it too, its JSONata twin
 * sits beside the TypeScript and a parity test holds the two to one rule.
 */
export { assertKeyExpression, businessKeyFromOperator } from "./business-key";
export { businessKeyText, nestsTooDeep, payloadHash } from "./canonical";
export { decodeExpression, DecodeProblem } from "./decode-jsonata";
export { CALL_SK_PREFIX, CallOutcome, callSortKey, decodeJournalItem, EFFECT_SK, effectKey, EFFECTS_TABLE_ENV, JOURNAL_ATTRIBUTES, OPERATION_PATTERN } from "./effects";
export type { JournalEntry } from "./effects";
export { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES, PIPELINE_CONFLICT, PIPELINE_REJECTED, RESERVED_ERROR_NAMES } from "./error-names";
export { CanonicalValueError, ContractConfigError } from "./errors";
export type { InvocationEvent } from "./event";
export { assertFieldRules, effectiveRules, fieldNameProblem, FieldType, firstFieldProblem } from "./field-rules";
export type { FieldRule, FieldRules } from "./field-rules";
export { ContractEnv, contractEnvironment, decodePayloadFields, decodeRejectionErrors, encodeFieldRules, encodePayloadFields, rejectionErrorsEnvironment, secondLayerEnvironment, secondLayerOutputs } from "./function-env";
export { commentWithKeyDerivation, keyDerivation, keyDerivationChanges, readKeyDerivation } from "./key-derivation";
export type { KeyDerivation } from "./key-derivation";
export { ClaimStatus, LedgerAttribute, LedgerCondition } from "./ledger";
export { LAMBDA_ENVIRONMENT_MAX_BYTES, LAMBDA_MEMORY_MB, LAMBDA_RESERVED_VARIABLES, LAMBDA_TIMEOUT_SECONDS, LAMBDA_VARIABLE_NAME, lambdaEnvironmentBytes } from "./lambda-limits";
export { DLQ_MAX_MESSAGE_BYTES, largestBatchSize, largestMaxMessageBytes, MAX_BUSINESS_KEY_BYTES, MAX_DETAIL_CHARS, MAX_PRODUCER_ATTRIBUTES, MAX_RESULT_BYTES, QUARANTINE_ATTRIBUTE_BYTES, RECORD_BYTES_PER_MESSAGE_BYTE, RECORD_ENVELOPE_BYTES, REDRIVE_ATTRIBUTE_BYTES, sourceQueueMaxBytes, SQS_MAX_ATTRIBUTES, SQS_MAX_MESSAGE_BYTES, SYNC_EXECUTION_INPUT_BYTES, worstBatchInputBytes } from "./limits";
export { DEFAULT_STATE_FILE, isStateLive, LOCAL_CREDENTIALS, LOCAL_REGION, readStateFile, removeStateFile, writeStateFile } from "./local-cloud-state";
export type { LocalCloudState } from "./local-cloud-state";
export { DlqAttribute, DlqReason, FIFO_HELD_DETAIL, fatesOfStateOutput, RecordOutcome } from "./outcomes";
export { FIFO_DEDUPLICATION_WINDOW_SECONDS, FIFO_SUFFIX, isFifoQueue, redriveDeduplicationId } from "./fifo";
export { OutputName } from "./outputs";
export type { PipelineOutputName } from "./outputs";
export { dnsSuffixOfPartition, partitionOfRegion } from "./partition";
export { GUARD_STATEMENT_IDS, GuardedAction, guardedActions, guardStatements, QUEUE_ACTIONS_IN_USE, queueGuardOf, queuePolicyDocument, wildcardMatches } from "./queue-guard";
export { PIPES_REGIONS, PIPES_REGIONS_SOURCE } from "./pipes-regions";
export type { ActionGuard } from "./queue-guard";
export { pipeFilterPatterns, QUARANTINE_MARKERS, QUARANTINED_COPY_PATTERN } from "./quarantined-copy";
export { dlqRedriveAllowPolicy, readRedriveAllow, redriveGuardOf, RedrivePermission, SOURCE_QUEUE_REDRIVE_ALLOW_POLICY } from "./redrive-paths";
export type { RedriveAllow, RedriveAttributes, RedriveGuard, RedriveGuards } from "./redrive-paths";
export { legacySecondLayerIds, SECOND_LAYER_HASH_FUNCTIONS, SECOND_LAYER_IDS, secondLayerRecordId } from "./second-layer-ids";
export type { SecondLayerIds } from "./second-layer-ids";
export { FUNCTION_ERROR_FIELD, InvocationErrorMessage, InvocationOutcome } from "./invocation-log";
export { FATE_METRICS_NAMESPACE, FATE_REASON_DIMENSION, FATE_SERVICE_DIMENSION, FateMetric, FUNCTION_FATE_METRICS, WORKFLOW_FATE_METRICS } from "./fate-metrics";
export { CANONICAL_FUNCTIONS, jsonataString } from "./canonical-jsonata";
export { canonicalJson } from "./canonical";
export type { DecodeSpec } from "./decode-jsonata";
export { decodeBody, deriveBusinessKey } from "./decode";
export { duplicateMemberName } from "./member-names";
export { INVOCATION_EVENT_FIELDS } from "./event";
export {
  BATCH_RECORD_FIELDS,
  batchRecordEnvelopeBytes,
  BatchRecordOutcome,
  DEFAULT_BATCH_CONCURRENCY,
  failedAnswer,
  isBatchInvocationEvent,
  MAX_ANSWER_ERROR_CHARS,
  worstBatchAnswerBytes,
  worstBatchInvocationInputBytes,
} from "./batch-invocation";
export type { BatchAnswer, BatchInvocationEvent, BatchRecordAnswer, BatchRecordEvent } from "./batch-invocation";
export { fieldProblemExpression, QUOTE_FUNCTION } from "./field-rules-jsonata";
export { CANONICAL_FORM } from "./key-derivation";
export { COMPLETE_UPDATE } from "./ledger";
export { QuarantineReason } from "./outcomes";
