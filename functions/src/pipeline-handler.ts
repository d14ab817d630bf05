import { IdempotencyConfig, IdempotencyRecordStatus, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Context } from "aws-lambda";
import { type Environment, type PipelineConfig, readPipelineConfig } from "./config";
import { conflictOnlyWhenCompleted, rejectionTest, reportedError } from "./errors";
import { EVENT_KEY_JMESPATH, PAYLOAD_VALIDATION_JMESPATH } from "./idempotency";
import { type BatchLines, createInvocationLog, type LogFields } from "./invocation-log";
import { type BatchAnswer, type BatchInvocationEvent, InvocationOutcome, isBatchInvocationEvent } from "@effectively-once/contract";
import { batchAnswer, mapBounded, type RecordRun, withPayload } from "./batch";
import { legacyRecords } from "./legacy-records";
import { createFateMetrics } from "./metrics";
import { boundResult, type TruncatedResult } from "./result-bound";
import { MAX_RESULT_BYTES } from "@effectively-once/contract";
import type { Payload, PipelineEvent, SideEffect } from "./types";
import { validatePipelineEvent } from "./validate";

/** Levels at which the invocation log writes every line (its success line is INFO): the fate metrics can ride on it. */
const LINE_LEVELS: ReadonlySet<string> = new Set(["TRACE", "DEBUG", "INFO"]);

/** What a handler's `setup` gets at cold start. */
export interface HandlerInit {
  /** The environment the handler was built from (`process.env` when deployed). */
  readonly env: Environment;
  /** The checked pipeline configuration. */
  readonly config: PipelineConfig;
  /** The DynamoDB client the wrapper uses for Powertools; `setup` may share it. */
  readonly dynamoDb: DynamoDBClient;
}

/** What {@link createPipelineHandler} turns into a Lambda handler. */
export interface PipelineHandlerOptions<P extends Payload, T, R = undefined> {
  /**
   * The side effect, run at most once per `[businessKey, operation]` while Powertools remembers the key.
   *
   * Its result goes back to the state machine and into the Powertools record, so keep it small: an id, an outcome.
   * A result whose JSON is larger than `MAX_RESULT_BYTES` (65,536 UTF-8 bytes, packages/contract/src/limits.ts) is replaced,
   * after the effect was applied, by a {@link TruncatedResult} `{ truncated: true, bytes, sha256 }` (the size and
   * SHA-256 of the JSON it stands for): the handler returns it, Powertools stores it and duplicates get it back, and
   * the first one of a cold start is logged as a warning. Without the bound such a result would fail the Invoke state
   * (Step Functions' 256 KiB) or the Powertools record (DynamoDB's 400 KB item) after the effect, on every delivery.
   */
  readonly sideEffect: SideEffect<P, T, R>;
  /**
   * Builds what the side effect needs, once per cold start (e.g. `EffectJournal.fromEnvironment`); its result is
   * the side effect's `context.resources`. If it throws, the cold start fails (throw `ConfigurationError`).
   */
  readonly setup?: (init: HandlerInit) => R;
}

/** The testing seam: what the wrapper would otherwise build from `process.env`. */
export interface HandlerDependencies {
  /** @default process.env */
  readonly env?: Environment;
  /** @default a client for `AWS_REGION` (it honours `AWS_ENDPOINT_URL_DYNAMODB`, which the local cloud sets) */
  readonly dynamoDb?: DynamoDBClient;
  /** @default a Powertools logger with `POWERTOOLS_SERVICE_NAME` and `POWERTOOLS_LOG_LEVEL` */
  readonly logger?: Logger;
}

/**
 * The downstream Lambda handler. For the single-record event it returns the side effect's result, or a
 * {@link TruncatedResult} in its place when that result is larger than the bound (see `sideEffect`), and throws a
 * failure; for a batch event (`{ records }`) it answers one outcome per record, in order, and never the results.
 */
export interface PipelineHandler<T> {
  (event: BatchInvocationEvent, context: Context): Promise<BatchAnswer>;
  (event: unknown, context: Context): Promise<T | TruncatedResult>;
}

/**
 * Turns a side effect into the pipeline's downstream handler. Call it at module scope of the handler file, so the
 * environment is read at cold start and a missing variable fails the cold start with a `ConfigurationError` naming
 * it. The handler takes the single-record event or a batch event (`{ records: [...] }`, one invocation per batch:
 * docs/guarantees.md). A batch's records run at most `PIPELINE_BATCH_CONCURRENCY` at once (default 10), each exactly
 * as a single-record invocation would run it, and the answer says each record's outcome (batch.ts). Per record:
 *
 * 1. checks the event with the pipeline's field rules and computes the canonical payload hash (a malformed event
 *    throws `ValidationError` before any idempotency record is written);
 * 2. runs the side effect under Powertools idempotency on the construct's table, keyed by `[businessKey, operation]`
 *    under the contract's id prefix and digest (never the function's name) and validated on the payload hash
 *    (another payload under a stored key: `IdempotencyValidationError`); during the upgrade's transition a record of
 *    the earlier release's ids answers first (legacy-records.ts). The side effect receives a deep copy of the event,
 *    so what it changes in it never reaches the record Powertools completes or deletes;
 * 3. replaces a result larger than `MAX_RESULT_BYTES` with a {@link TruncatedResult}, inside the idempotent
 *    function, so that Powertools stores the small stand-in (see `sideEffect`);
 * 4. writes one log line with the key, operation, messageId and outcome; in a batch, one summary line
 *    (`invocation batch`) whose `records` hold each record's entry (key, operation, messageId, outcome and what
 *    `note()` added to that record), while a failed record writes its own WARN/ERROR line with the error;
 * 5. reports permanent errors and conflicts under the names the state machine quarantines (see `errors.ts`).
 * 6. counts each record's fate it decided (`Applied` with its send-to-effect time, or a second-layer `Duplicate`) as
 *    CloudWatch metrics through Powertools Metrics in the embedded metric format, carried by the line of step 4 (a
 *    batch's summary line carries one value per record; above INFO a line of their own, at the function's level; see
 *    `metrics.ts`).
 *
 * @example
 * export const handler = createPipelineHandler({ setup: EffectJournal.fromEnvironment, sideEffect: charge });
 */
export function createPipelineHandler<P extends Payload, T, R = undefined>(
  options: PipelineHandlerOptions<P, T, R>,
  dependencies: HandlerDependencies = {},
): PipelineHandler<T> {
  const env = dependencies.env ?? process.env;
  const config = readPipelineConfig(env);
  const dynamoDb = dependencies.dynamoDb ?? new DynamoDBClient({ region: config.region });
  const logger = dependencies.logger ?? new Logger({ serviceName: config.serviceName, logLevel: config.logLevel });
  const resources = options.setup ? options.setup({ env, config, dynamoDb }) : (undefined as R);
  // One line per invocation (see invocation-log.ts): the side effect and the duplicate hook only add fields to it.
  // A rejection as the workflow sees it, the names the stack added included (the function-errors alarm relies on it).
  const log = createInvocationLog(logger, rejectionTest(config.rejectionErrors));
  // Fates as metrics, per record, carried by the invocation's line (metrics.ts).
  const fates = createFateMetrics({ serviceName: config.serviceName });
  // Once per cold start: the line of each invocation says it too (resultTruncated), the warning says what to do.
  let warnedOversize = false;
  const bound = <V>(result: V): V | TruncatedResult =>
    boundResult(result, ({ bytes, sha256 }) => {
      log.note({ resultTruncated: true, resultBytes: bytes });
      if (warnedOversize) return;
      warnedOversize = true;
      logger.warn("side effect result too large: replaced by a stand-in; return less (an id, an outcome)", {
        ...log.fields(),
        resultBytes: bytes,
        resultSha256: sha256,
        maxResultBytes: MAX_RESULT_BYTES,
      });
    });

  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: EVENT_KEY_JMESPATH,
    payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH,
    expiresAfterSeconds: config.expiresAfterSeconds,
    throwOnNoIdempotencyKey: true,
    // The record ids' digest (and the payload check's): collision-resistant, from the construct (second-layer-ids.ts).
    hashFunction: config.secondLayerIds.hashFunction,
    // Runs only when Powertools answers from a stored record instead of running the side effect.
    // The bound again: a record stored before it (or by another version) may hold a result above it.
    responseHook: (response, record) => {
      log.note({ outcome: InvocationOutcome.Duplicate, idempotencyRecordStatus: record.getStatus() });
      fates.duplicate();
      return bound(response) as typeof response;
    },
  });
  const persistenceStore = new DynamoDBPersistenceLayer({ tableName: config.idempotencyTableName, awsSdkV3Client: dynamoDb });
  const runOnce = makeIdempotent(
    // Bounded inside the idempotent function: Powertools stores what this returns.
    // The side effect gets its own deep copy: Powertools 2.35 hashes this very `event` again to complete or delete the
    // record, so a side effect that changed businessKey, operation or payloadHash would complete another record (or
    // the right one with a wrong validation hash). A copy, not a frozen event: a side effect may normalise its input.
    async (event: PipelineEvent<P>, lambda: Context): Promise<T | TruncatedResult> => {
      const result = await options.sideEffect(structuredClone(event), { lambda, resources, note: log.note });
      fates.applied(event);
      return bound(result);
    },
    // The contract's prefix, never Powertools' default (the function's name): a rename must forget nothing.
    { persistenceStore, config: idempotencyConfig, keyPrefix: config.secondLayerIds.keyPrefix },
  );
  // During the upgrade's transition, the records the earlier release wrote answer too (legacy-records.ts).
  const legacy = config.legacySecondLayerIds
    ? legacyRecords({ tableName: config.idempotencyTableName, client: dynamoDb, ids: config.legacySecondLayerIds, expiresAfterSeconds: config.expiresAfterSeconds })
    : undefined;

  /** One record as a single-record invocation runs it: its own log line, its own Powertools record, its own fates. */
  const runRecord = (event: unknown, context: Context, batch?: BatchLines): Promise<{ readonly result: T | TruncatedResult; readonly duplicate: boolean }> =>
    // Validate before Powertools: a malformed event never writes an idempotency record.
    log.run(event, context, async () => {
      try {
        const checked = validatePipelineEvent(event, config) as PipelineEvent<P>;
        const answered = await legacy?.answer(checked);
        if (answered) {
          log.note({ outcome: InvocationOutcome.Duplicate, idempotencyRecordStatus: IdempotencyRecordStatus.COMPLETED, legacyRecord: true });
          fates.duplicate();
          return { result: bound(answered.response) as T | TruncatedResult, duplicate: true };
        }
        const result = await runOnce(checked, context);
        // The response hook notes it when Powertools answered from a stored record instead of running the effect.
        return { result, duplicate: log.fields().outcome === InvocationOutcome.Duplicate };
      } catch (error) {
        // Before the log classifies it: another payload still in flight is not a conflict yet.
        throw conflictOnlyWhenCompleted(error);
      } finally {
        // A batch's records are flushed once, onto its summary line (batchMetrics).
        if (!batch) flushFates(log.note);
      }
    }, batch);

  /**
   * Into `line` when the logger writes every line it may end with (INFO or below), else alone; a SILENT logger (tests,
   * the simulation) writes nothing at all. Every value counted since the last flush is written exactly once.
   */
  const flushFates = (line: (fields: LogFields) => void): void => {
    const level = logger.getLevelName();
    fates.flush(LINE_LEVELS.has(level) ? line : level === "SILENT" ? "none" : { level });
  };
  /** The fate metrics a batch counted, as fields of its summary line: one EMF document, one value per record. */
  const batchMetrics = (): LogFields => {
    let document: LogFields = {};
    flushFates((fields) => (document = fields));
    return document;
  };

  const handler = async function handler(event: unknown, context: Context): Promise<T | TruncatedResult | BatchAnswer> {
    idempotencyConfig.registerLambdaContext(context);
    if (isBatchInvocationEvent(event)) {
      // One outcome per record, never a thrown error: a record's failure must not fail the others (batch.ts).
      const records = event.records;
      return log.runBatch(
        context,
        records.length,
        async (batch) => {
          const runs = await mapBounded(records, config.batchConcurrency, async (record): Promise<RecordRun> => {
            try {
              return { ok: true, duplicate: (await runRecord(withPayload(record), context, batch)).duplicate };
            } catch (error) {
              return { ok: false, error: reportedError(error) };
            }
          });
          return batchAnswer(records, runs);
        },
        batchMetrics,
      );
    }
    try {
      return (await runRecord(event, context)).result;
    } catch (error) {
      throw reportedError(error);
    }
  };
  return handler as PipelineHandler<T>;
}
