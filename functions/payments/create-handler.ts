import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Logger } from "@aws-lambda-powertools/logger";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { isPermanentError } from "../shared/errors";
import { charge, downstreamIdempotencyKey } from "./charge";
import type { PaymentsConfig } from "./config";
import { EVENT_KEY_JMESPATH, PAYLOAD_VALIDATION_JMESPATH } from "./idempotency";
import type { PaymentEvent, PaymentResult } from "./types";
import { validatePaymentEvent } from "./validate";

/** Everything the handler needs, built once per cold start (see `handler.ts`). */
export interface PaymentsDependencies {
  readonly config: PaymentsConfig;
  /** Used by the Powertools persistence layer. */
  readonly dynamoDb: DynamoDBClient;
  /** Used by the downstream stand-in. */
  readonly documentClient: DynamoDBDocumentClient;
  readonly logger: Logger;
}

export type PaymentsHandler = (event: unknown, context: Context) => Promise<PaymentResult>;

const INVOCATION_KEYS = ["businessKey", "operation", "messageId"] as const;

/** The correlation fields of a possibly invalid event, so even a rejection is logged with them. */
function invocationKeys(event: unknown): Record<string, string> {
  const keys: Record<string, string> = {};
  if (typeof event !== "object" || event === null) return keys;
  for (const key of INVOCATION_KEYS) {
    const value = (event as Record<string, unknown>)[key];
    if (typeof value === "string") keys[key] = value;
  }
  return keys;
}

/** Wires validation, Powertools idempotency, the logger and the side effect into a Lambda handler. */
export function createPaymentsHandler(deps: PaymentsDependencies): PaymentsHandler {
  const { config, logger } = deps;
  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: EVENT_KEY_JMESPATH,
    payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH,
    expiresAfterSeconds: config.expiresAfterSeconds,
    throwOnNoIdempotencyKey: true,
    // Runs only when Powertools answers from a stored record instead of running the effect.
    responseHook: (response, record) => {
      logger.info("duplicate invocation: returning the stored result", {
        idempotencyRecordStatus: record.getStatus(),
      });
      return response;
    },
  });
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: config.idempotencyTableName,
    awsSdkV3Client: deps.dynamoDb,
  });
  const chargeStore = {
    documentClient: deps.documentClient,
    tableName: config.effectsTableName,
    retentionSeconds: config.expiresAfterSeconds,
  };

  const processOnce = makeIdempotent(
    async (event: PaymentEvent & { readonly payloadHash: string }, _context: Context): Promise<PaymentResult> => {
      const receipt = await charge(chargeStore, {
        idempotencyKey: downstreamIdempotencyKey(event.businessKey, event.operation),
        messageId: event.messageId,
        amount: event.payload.amount,
        currency: event.payload.currency,
      });
      logger.info(`downstream charge ${receipt.outcome}`, { chargeId: receipt.chargeId });
      return {
        businessKey: event.businessKey,
        operation: event.operation,
        chargeId: receipt.chargeId,
        outcome: receipt.outcome,
        amount: receipt.amount,
        currency: receipt.currency,
      };
    },
    // Explicit, though it equals Powertools' default (AWS_LAMBDA_FUNCTION_NAME): ids never start with a bare "#".
    { persistenceStore, config: idempotencyConfig, keyPrefix: config.functionName },
  );

  return async function handler(event: unknown, context: Context): Promise<PaymentResult> {
    logger.addContext(context);
    idempotencyConfig.registerLambdaContext(context);
    const keys = invocationKeys(event);
    logger.appendKeys(keys);
    try {
      // Validate before Powertools: a malformed event never writes an idempotency record.
      const { event: valid, payloadHash } = validatePaymentEvent(event, config);
      // Powertools validates on the canonical payload hash, the very value the ledger stores.
      const result = await processOnce({ ...valid, payloadHash }, context);
      logger.info("payment processed", { outcome: result.outcome, chargeId: result.chargeId });
      return result;
    } catch (error) {
      if (isPermanentError(error)) {
        logger.warn("payment rejected: permanent error, the message will be quarantined", error as Error);
      } else {
        logger.error("payment failed: transient error, the message will be retried", error as Error);
      }
      throw error;
    } finally {
      logger.removeKeys(Object.keys(keys));
    }
  };
}
