import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { CallOutcome, callSortKey, decodeJournalItem, EFFECT_SK, EFFECTS_TABLE_ENV, JOURNAL_ATTRIBUTES } from "@effectively-once/contract";
import { requireString } from "./config";
import { DownstreamConflictError, DownstreamRefusedError, DownstreamStateError, PermanentError } from "./errors";
import type { HandlerInit } from "./pipeline-handler";

/**
 * A stand-in for a downstream API that honours an idempotency key the way real payment or billing APIs do: the
 * first call with a key applies the effect, later calls with the same key and the same fingerprint get the stored
 * effect back, another fingerprint is refused. The layout of its items is the contract's (packages/contract/src/effects.ts):
 * one `EFFECT` item per key (a conditional put: "applied" is counted once, ever) and one `CALL#…` item per call,
 * whatever its outcome, so tests and tools can tell "called twice" from "applied twice".
 */

/** Attributes of an effect, stored on its items: JSON values, none named like the journal's own attributes. */
export type EffectAttributes = Readonly<Record<string, unknown>>;

/** One call: what to apply under which key. */
export interface EffectRequest<A extends EffectAttributes> {
  /** The downstream idempotency key, e.g. `effectKey(event.businessKey, event.operation)`. */
  readonly effectKey: string;
  /** The SQS message behind the call, recorded on its items. */
  readonly messageId: string;
  /** What "the same effect" means, e.g. the event's `payloadHash`: another fingerprint under the key is a conflict. */
  readonly fingerprint: string;
  /** The effect itself (e.g. `{ chargeId, amount, currency }`); a replay returns the stored attributes instead. */
  readonly attributes: A;
}

/** What the downstream answered. */
export interface EffectReceipt<A extends EffectAttributes> {
  /** `applied` by this call, or `replayed`: applied before with the same fingerprint. */
  readonly outcome: typeof CallOutcome.Applied | typeof CallOutcome.Replayed;
  /** The effect's attributes as stored (on a replay: those of the call that applied it). */
  readonly attributes: A;
  /** ISO time the effect was applied. */
  readonly appliedAt: string;
}

/** Where and how an {@link EffectJournal} keeps its items. */
export interface EffectJournalOptions {
  /** The DynamoDB document client the journal writes with. */
  readonly documentClient: DynamoDBDocumentClient;
  /** A table keyed `pk`/`sk` (strings), TTL on `expiresAt`: the `EffectJournalTable` construct. */
  readonly tableName: string;
  /** Items expire this many seconds after they are written (`expiresAt`, epoch seconds). */
  readonly retentionSeconds: number;
  /** Epoch milliseconds; injectable for tests. @default Date.now */
  readonly now?: () => number;
  /** Call ids; injectable for tests. @default randomUUID */
  readonly newId?: () => string;
}

const RESERVED: readonly string[] = JOURNAL_ATTRIBUTES;

function shortJson(value: unknown): string {
  const json = JSON.stringify(value);
  return json.length > 160 ? `${json.slice(0, 157)}...` : json;
}

/** The effect journal: applies an effect at most once per effect key. */
export class EffectJournal {
  /**
   * A journal on the table the function's `EFFECTS_TABLE_NAME` names, on the wrapper's client, keeping items as
   * long as Powertools keeps its records. Fits `createPipelineHandler({ setup })`. Throws `ConfigurationError`
   * naming the variable.
   */
  static fromEnvironment(init: HandlerInit): EffectJournal {
    return new EffectJournal({
      documentClient: DynamoDBDocumentClient.from(init.dynamoDb),
      tableName: requireString(init.env, EFFECTS_TABLE_ENV),
      retentionSeconds: init.config.expiresAfterSeconds,
    });
  }

  constructor(private readonly options: EffectJournalOptions) {}

  // Looked up on every call, not captured: the deterministic simulation replaces Date.now and randomUUID.
  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private newId(): string {
    return (this.options.newId ?? randomUUID)();
  }

  /** Applies the effect once. Throws `DownstreamConflictError` if the key holds an effect with another fingerprint. */
  async apply<A extends EffectAttributes>(request: EffectRequest<A>): Promise<EffectReceipt<A>> {
    const reserved = Object.keys(request.attributes).find((name) => RESERVED.includes(name));
    if (reserved !== undefined) {
      // The same call would fail on every retry: quarantined as rejected, with the fix.
      throw new PermanentError(`effect attribute "${reserved}" is the journal's own: rename it (reserved: ${RESERVED.join(", ")})`);
    }
    const nowMs = this.now();
    const appliedAt = new Date(nowMs).toISOString();
    if (await this.putIfAbsent(request, appliedAt, nowMs)) {
      // A crash here leaves the effect without its CALL item: calls can be under-counted, effects never.
      await this.recordCall(request, CallOutcome.Applied, nowMs);
      return { outcome: CallOutcome.Applied, attributes: request.attributes, appliedAt };
    }
    const stored = await this.read(request.effectKey);
    if (stored.fingerprint !== request.fingerprint) {
      await this.recordCall(request, CallOutcome.Conflict, nowMs);
      throw new DownstreamConflictError(
        request.effectKey,
        `downstream already holds ${shortJson(stored.attributes)} under idempotency key "${request.effectKey}" ` +
          `(applied ${stored.appliedAt}); this call asked for ${shortJson(request.attributes)}: ` +
          "send the change under a new business key or operation",
      );
    }
    await this.recordCall(request, CallOutcome.Replayed, nowMs);
    return { outcome: CallOutcome.Replayed, attributes: stored.attributes as A, appliedAt: stored.appliedAt };
  }

  /**
   * Records the call as `refused` and throws `DownstreamRefusedError` with `reason` (permanent: the message is
   * quarantined `rejected`), as a downstream that turns a request down for good.
   */
  async refuse(request: { readonly effectKey: string; readonly messageId: string }, reason: string): Promise<never> {
    await this.recordCall(request, CallOutcome.Refused, this.now());
    throw new DownstreamRefusedError(reason);
  }

  private expiresAt(nowMs: number): number {
    return Math.floor(nowMs / 1000) + this.options.retentionSeconds;
  }

  private async recordCall(request: { readonly effectKey: string; readonly messageId: string }, outcome: CallOutcome, nowMs: number): Promise<void> {
    await this.options.documentClient.send(
      new PutCommand({
        TableName: this.options.tableName,
        // The journal's fields only: a call is counted, what it asked for is in the function's log line.
        Item: {
          pk: request.effectKey,
          sk: callSortKey(nowMs, this.newId()),
          messageId: request.messageId,
          outcome,
          expiresAt: this.expiresAt(nowMs),
        },
      }),
    );
  }

  /** True when this call wrote the effect, false when the key already held one. */
  private async putIfAbsent(request: EffectRequest<EffectAttributes>, appliedAt: string, nowMs: number): Promise<boolean> {
    try {
      await this.options.documentClient.send(
        new PutCommand({
          TableName: this.options.tableName,
          Item: {
            ...request.attributes,
            pk: request.effectKey,
            sk: EFFECT_SK,
            messageId: request.messageId,
            appliedAt,
            fingerprint: request.fingerprint,
            expiresAt: this.expiresAt(nowMs),
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

  private async read(key: string): Promise<{ fingerprint: unknown; appliedAt: string; attributes: EffectAttributes }> {
    const { Item } = await this.options.documentClient.send(
      new GetCommand({ TableName: this.options.tableName, Key: { pk: key, sk: EFFECT_SK }, ConsistentRead: true }),
    );
    const entry = Item && decodeJournalItem(Item);
    if (entry?.kind !== "effect") {
      // Only possible if the item expired and was deleted between the two calls: try again later.
      throw new DownstreamStateError(`downstream refused a new effect under "${key}" but holds none; retry the call`);
    }
    return { fingerprint: entry.fingerprint, appliedAt: String(entry.appliedAt), attributes: entry.attributes };
  }
}
