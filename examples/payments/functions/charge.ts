import { randomUUID } from "node:crypto";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { DownstreamConflictError, DownstreamRefusedError, DownstreamStateError } from "../../../functions/errors";
import { CallOutcome, ChargeOutcome } from "./types";

/**
 * A stand-in for a downstream payments API that honours an idempotency key the way real payment
 * APIs do: the first call with a key creates the charge, later calls with the same key and the same
 * amount/currency get the stored charge back, a different amount/currency is refused.
 *
 * Items under `pk = <idempotency key>`:
 * - `sk = "CHARGE"`: the charge itself, at most one (conditional put).
 * - `sk = "CALL#<ISO time>#<call id>"`: one per call, whatever its outcome, so tests can tell
 *   "called twice" (two CALL items) from "applied twice" (two `applied` CALL items: never).
 */

export const CHARGE_SK = "EFFECT";
/**
 * The stand-in refuses charges in ISO 4217's "no currency" code, as a payments API declines a currency it does not
 * take: a well-formed message the downstream turns down for good (`rejected`).
 */
export const REFUSED_CURRENCY = "XXX";
export const CALL_SK_PREFIX = "CALL#";

export interface ChargeStore {
  readonly documentClient: DynamoDBDocumentClient;
  readonly tableName: string;
  /** Items expire this many seconds after they are written (`expiresAt`, epoch seconds). */
  readonly retentionSeconds: number;
  /** Epoch milliseconds; injectable for tests. */
  readonly now?: () => number;
  readonly newId?: () => string;
}

export interface ChargeRequest {
  readonly idempotencyKey: string;
  readonly messageId: string;
  readonly amount: number;
  readonly currency: string;
}

export interface ChargeReceipt {
  readonly chargeId: string;
  readonly outcome: ChargeOutcome;
  readonly amount: number;
  readonly currency: string;
  readonly appliedAt: string;
}

interface StoredCharge {
  readonly chargeId: string;
  readonly amount: number;
  readonly currency: string;
  readonly appliedAt: string;
}

/** The key the function hands the downstream: business identity + intent, never the SQS messageId. */
export function downstreamIdempotencyKey(businessKey: string, operation: string): string {
  return `${businessKey}#${operation}`;
}

/** Calls the downstream once. Throws `DownstreamConflictError` if the key holds a different charge. */
export async function charge(store: ChargeStore, request: ChargeRequest): Promise<ChargeReceipt> {
  const nowMs = (store.now ?? Date.now)();
  const newId = store.newId ?? randomUUID;
  const expiresAt = Math.floor(nowMs / 1000) + store.retentionSeconds;
  const appliedAt = new Date(nowMs).toISOString();
  const candidate: StoredCharge = {
    chargeId: `ch_${newId()}`,
    amount: request.amount,
    currency: request.currency,
    appliedAt,
  };

  const recordCall = (outcome: CallOutcome) =>
    store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          pk: request.idempotencyKey,
          sk: `${CALL_SK_PREFIX}${appliedAt}#${newId()}`,
          messageId: request.messageId,
          outcome,
          amount: request.amount,
          currency: request.currency,
          expiresAt,
        },
      }),
    );

  if (request.currency === REFUSED_CURRENCY) {
    await recordCall(CallOutcome.REFUSED);
    throw new DownstreamRefusedError(`downstream refuses charges in ${REFUSED_CURRENCY} (no currency); this call asked for ${request.amount} ${request.currency}`);
  }
  const applied = await putChargeIfAbsent(store, request, candidate, expiresAt);
  if (applied) {
    // A crash here leaves the charge without its CALL item: calls can be under-counted, charges never.
    await recordCall(CallOutcome.APPLIED);
    return { ...candidate, outcome: ChargeOutcome.APPLIED };
  }

  const stored = await getCharge(store, request.idempotencyKey);
  if (stored.amount !== request.amount || stored.currency !== request.currency) {
    await recordCall(CallOutcome.CONFLICT);
    throw new DownstreamConflictError(
      request.idempotencyKey,
      `downstream already holds charge ${stored.chargeId} of ${stored.amount} ${stored.currency} ` +
        `under idempotency key "${request.idempotencyKey}"; this call asked for ` +
        `${request.amount} ${request.currency}: send the change under a new business key or operation`,
    );
  }
  await recordCall(CallOutcome.REPLAYED);
  return {
    chargeId: stored.chargeId,
    amount: stored.amount,
    currency: stored.currency,
    appliedAt: stored.appliedAt,
    outcome: ChargeOutcome.REPLAYED,
  };
}

/** True when this call created the charge, false when one already existed. */
async function putChargeIfAbsent(
  store: ChargeStore,
  request: ChargeRequest,
  candidate: StoredCharge,
  expiresAt: number,
): Promise<boolean> {
  try {
    await store.documentClient.send(
      new PutCommand({
        TableName: store.tableName,
        Item: {
          pk: request.idempotencyKey,
          sk: CHARGE_SK,
          ...candidate,
          messageId: request.messageId,
          expiresAt,
        },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof Error && error.name === "ConditionalCheckFailedException") return false;
    throw error;
  }
}

async function getCharge(store: ChargeStore, idempotencyKey: string): Promise<StoredCharge> {
  const { Item } = await store.documentClient.send(
    new GetCommand({
      TableName: store.tableName,
      Key: { pk: idempotencyKey, sk: CHARGE_SK },
      ConsistentRead: true,
    }),
  );
  if (!Item) {
    // Only possible if the item expired and was deleted between the two calls: try again later.
    throw new DownstreamStateError(
      `downstream refused a new charge under "${idempotencyKey}" but holds none; retry the call`,
    );
  }
  return {
    chargeId: String(Item.chargeId),
    amount: Number(Item.amount),
    currency: String(Item.currency),
    appliedAt: String(Item.appliedAt),
  };
}
