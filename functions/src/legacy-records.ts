import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  IdempotencyValidationError,
} from "@aws-lambda-powertools/idempotency";
import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import type { IdempotencyRecord } from "@aws-lambda-powertools/idempotency/persistence";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SecondLayerIds } from "@effectively-once/contract";
import { EVENT_KEY_JMESPATH, PAYLOAD_VALIDATION_JMESPATH } from "./idempotency";

/**
 * The records an earlier release wrote under its own ids (`<function name>#<md5>`), honoured for one retention after
 * the upgrade: without them the function would forget every key applied before it, and each rule that counts on the
 * second layer outliving the ledger (a takeover, a failed Complete, an operator's release, `dlq redrive`'s ages)
 * would be void for that long. Read by Powertools' own persistence layer under the legacy prefix and digest, so the
 * id, the payload check and the expiry are exactly the ones the earlier release wrote and obeyed.
 *
 * Only read, never written: no invocation starts on the earlier code once the deploy is done, so a legacy record
 * can only still move from INPROGRESS to COMPLETED (an invocation that started before the deploy), which the
 * in-progress answer covers.
 */
export interface LegacyRecords {
  /**
   * What a live legacy record of the event's key says: its stored result (the event is a duplicate), or undefined
   * when there is none (or it expired). Throws Powertools' `IdempotencyValidationError` for another payload, and
   * `IdempotencyAlreadyInProgressError` while the earlier code's invocation of the key may still run.
   */
  answer(event: unknown): Promise<{ readonly response: unknown } | undefined>;
}

export function legacyRecords(options: {
  readonly tableName: string;
  readonly client: DynamoDBClient;
  readonly ids: SecondLayerIds;
  readonly expiresAfterSeconds: number;
}): LegacyRecords {
  const store = new DynamoDBPersistenceLayer({ tableName: options.tableName, awsSdkV3Client: options.client });
  store.configure({
    config: new IdempotencyConfig({
      eventKeyJmesPath: EVENT_KEY_JMESPATH,
      payloadValidationJmesPath: PAYLOAD_VALIDATION_JMESPATH,
      expiresAfterSeconds: options.expiresAfterSeconds,
      throwOnNoIdempotencyKey: true,
      hashFunction: options.ids.hashFunction,
    }),
    keyPrefix: options.ids.keyPrefix,
  });
  return {
    async answer(event) {
      let record: IdempotencyRecord;
      try {
        record = await store.getRecord(event as Parameters<typeof store.getRecord>[0]);
      } catch (error) {
        if (error instanceof IdempotencyItemNotFoundError) return undefined;
        // Powertools checks the payload before the expiry: another payload under an expired record is no conflict.
        if (error instanceof IdempotencyValidationError && !isLive(error.existingRecord)) return undefined;
        throw error;
      }
      if (!isLive(record)) return undefined;
      if (record.getStatus() === IdempotencyRecordStatus.INPROGRESS) {
        throw new IdempotencyAlreadyInProgressError("an invocation of the earlier release holds this key: retried once it ends", record);
      }
      return { response: record.getResponse() };
    },
  };
}

/**
 * Whether Powertools would still answer from the record: not past its expiry, and, in progress, not past the
 * in-progress expiry of the invocation that wrote it (Powertools then lets a new invocation take the key).
 */
function isLive(record: IdempotencyRecord | undefined): boolean {
  if (record === undefined) return false;
  const status = record.getStatus();
  if (status === IdempotencyRecordStatus.EXPIRED) return false;
  const inProgressUntil = record.inProgressExpiryTimestamp;
  return !(status === IdempotencyRecordStatus.INPROGRESS && inProgressUntil !== undefined && inProgressUntil < Date.now());
}
