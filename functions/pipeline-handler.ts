import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { Context } from "aws-lambda";
import { type PipelineConfig, readPipelineConfig } from "./config";
import type { Environment } from "./env";
import { conflictOnlyWhenCompleted, isPermanentError, reportedError } from "./errors";
import { EVENT_KEY_JMESPATH, PAYLOAD_VALIDATION_JMESPATH } from "./idempotency";
import { createInvocationLog, InvocationOutcome } from "./invocation-log";
import type { Payload, PipelineEvent, SideEffect } from "./types";
import { validatePipelineEvent } from "./validate";

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
  /** The side effect, run at most once per `[businessKey, operation]` while Powertools remembers the key. */
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

/** The downstream Lambda handler: takes the state machine's event, returns the side effect's result. */
export type PipelineHandler<T> = (event: unknown, context: Context) => Promise<T>;

/**
 * Turns a side effect into the pipeline's downstream handler. Call it at module scope of the handler file, so the
 * environment is read at cold start and a missing variable fails the cold start with a `ConfigurationError` naming
 * it. Per invocation the handler:
 *
 * 1. checks the event with the pipeline's field rules and computes the canonical payload hash (a malformed event
 *    throws `ValidationError` before any idempotency record is written);
 * 2. runs the side effect under Powertools idempotency on the construct's table, keyed by `[businessKey, operation]`
 *    and validated on the payload hash (another payload under a stored key: `IdempotencyValidationError`);
 * 3. writes one log line with the key, operation, messageId and outcome;
 * 4. reports permanent errors and conflicts under the names the state machine quarantines (see `errors.ts`).
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
  const log = createInvocationLog(logger, isPermanentError);

  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: EVENT_KEY_JMESPATH,
    payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH,
    expiresAfterSeconds: config.expiresAfterSeconds,
    throwOnNoIdempotencyKey: true,
    // Runs only when Powertools answers from a stored record instead of running the side effect.
    responseHook: (response, record) => {
      log.note({ outcome: InvocationOutcome.DUPLICATE, idempotencyRecordStatus: record.getStatus() });
      return response;
    },
  });
  const persistenceStore = new DynamoDBPersistenceLayer({ tableName: config.idempotencyTableName, awsSdkV3Client: dynamoDb });
  const runOnce = makeIdempotent(
    (event: PipelineEvent<P>, lambda: Context): Promise<T> => options.sideEffect(event, { lambda, resources, note: log.note }),
    // Explicit, though it equals Powertools' default (AWS_LAMBDA_FUNCTION_NAME): ids never start with a bare "#".
    { persistenceStore, config: idempotencyConfig, keyPrefix: config.functionName },
  );

  return async function handler(event: unknown, context: Context): Promise<T> {
    idempotencyConfig.registerLambdaContext(context);
    try {
      // Validate before Powertools: a malformed event never writes an idempotency record.
      return await log.run(event, context, async () => {
        try {
          return await runOnce(validatePipelineEvent(event, config) as PipelineEvent<P>, context);
        } catch (error) {
          // Before the log classifies it: another payload still in flight is not a conflict yet.
          throw conflictOnlyWhenCompleted(error);
        }
      });
    } catch (error) {
      throw reportedError(error);
    }
  };
}
