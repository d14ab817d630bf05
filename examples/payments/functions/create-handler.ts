import { IdempotencyConfig, makeIdempotent } from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { Logger } from "@aws-lambda-powertools/logger";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Context } from "aws-lambda";
import { isPermanentError } from "../../../functions/errors";
import { createInvocationLog, InvocationOutcome } from "../../../functions/invocation-log";
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

/** Wires validation, Powertools idempotency, the logger and the side effect into a Lambda handler. */
export function createPaymentsHandler(deps: PaymentsDependencies): PaymentsHandler {
  const { config, logger } = deps;
  // One line per invocation (see invocation-log.ts): the charge and the duplicate hook only add fields to it.
  const log = createInvocationLog(logger, isPermanentError);
  const idempotencyConfig = new IdempotencyConfig({
    eventKeyJmesPath: EVENT_KEY_JMESPATH,
    payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH,
    expiresAfterSeconds: config.expiresAfterSeconds,
    throwOnNoIdempotencyKey: true,
    // Runs only when Powertools answers from a stored record instead of running the effect.
    responseHook: (response, record) => {
      log.note({ outcome: InvocationOutcome.DUPLICATE, idempotencyRecordStatus: record.getStatus() });
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
      log.note({ outcome: receipt.outcome, chargeId: receipt.chargeId });
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
    idempotencyConfig.registerLambdaContext(context);
    // Validate before Powertools: a malformed event never writes an idempotency record.
    return log.run(event, context, () => {
      const { event: valid, payloadHash } = validatePaymentEvent(event, config);
      // Powertools validates on the canonical payload hash, the very value the ledger stores.
      return processOnce({ ...valid, payloadHash }, context);
    });
  };
}
