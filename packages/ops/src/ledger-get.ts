import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { ClaimStatus } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { dateWithRelative, fields } from "./format";
import { operationOf, requireOutput } from "./outputs";
import type { OpsContext } from "./types";
import { safeCell } from "./safe-text";
import { OutputName } from "@effectively-once/contract";

/** A ledger item (`pk` = business key, `sk` = operation); times are epoch seconds as stored. */
export interface LedgerClaim {
  readonly table: string;
  readonly key: string;
  readonly operation: string;
  readonly status: ClaimStatus | string;
  /** SQS messageId of the message that claimed the key. */
  readonly owner?: string;
  /** Identifies one claim attempt: Complete and Release are conditional on it. */
  readonly claimId?: string;
  readonly payloadHash?: string;
  readonly claimedAt?: number;
  /** Only while IN_PROGRESS: after it, the next delivery of the key may take the claim over. */
  readonly leaseExpiresAt?: number;
  /** TTL; the claim condition ignores an expired item even before DynamoDB deletes it. */
  readonly expiresAt?: number;
  readonly completedAt?: number;
  /** Derived: an IN_PROGRESS claim whose lease has run out. */
  readonly leaseExpired: boolean;
  /** Derived: retention over (the item no longer blocks a new claim). */
  readonly retentionExpired: boolean;
}

export interface LedgerKeyOptions {
  readonly key: string;
  /** Default: the stack's `operation` output. */
  readonly operation?: string;
}

/** Reads the claim with a consistent read; undefined when the key has no ledger item. */
export async function getLedgerClaim(ctx: OpsContext, options: LedgerKeyOptions): Promise<LedgerClaim | undefined> {
  const table = requireOutput(ctx, OutputName.LedgerTable);
  const operation = operationOf(ctx, options.operation);
  const { Item } = await awsCall("reading the ledger", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the ledger table ${table}` }, () =>
    ctx.dynamodb.send(new GetCommand({ TableName: table, Key: { pk: options.key, sk: operation }, ConsistentRead: true })),
  );
  if (!Item) return undefined;
  const num = (name: string) => (typeof Item[name] === "number" ? (Item[name] as number) : undefined);
  const str = (name: string) => (typeof Item[name] === "string" ? (Item[name] as string) : undefined);
  const status = str("status") ?? "UNKNOWN";
  return claimAsOf(
    {
      table,
      key: options.key,
      operation,
      status,
      owner: str("owner"),
      claimId: str("claimId"),
      payloadHash: str("payloadHash"),
      claimedAt: num("claimedAt"),
      leaseExpiresAt: num("leaseExpiresAt"),
      expiresAt: num("expiresAt"),
      completedAt: num("completedAt"),
      leaseExpired: false,
      retentionExpired: false,
    },
    ctx.now(),
  );
}

/** One sentence on what the claim means for the next delivery of the key. */
export function claimMeaning(claim: LedgerClaim): string {
  if (claim.retentionExpired) return "retention over: the item no longer blocks anything (TTL deletes it lazily); the next message with this key claims it anew";
  if (claim.status === ClaimStatus.Completed) return "applied: a message with the same payload is acknowledged as a duplicate, another payload is quarantined as payload-mismatch";
  if (claim.status === ClaimStatus.InProgress && claim.leaseExpired) {
    return "in progress, lease ran out: the worker stopped or stalled; the next delivery of the key takes the claim over (no release needed)";
  }
  if (claim.status === ClaimStatus.InProgress) {
    return "in progress: a message is being processed; other messages with this key are retried until the claim completes, is released or its lease runs out";
  }
  return `unexpected status "${claim.status}"`;
}

/** The claim's derived flags as of `nowMs` (a claim read a while ago may have expired since). */
function claimAsOf(claim: LedgerClaim, nowMs: number): LedgerClaim {
  const nowS = nowMs / 1000;
  return {
    ...claim,
    leaseExpired: claim.status === ClaimStatus.InProgress && claim.leaseExpiresAt !== undefined && claim.leaseExpiresAt < nowS,
    retentionExpired: claim.expiresAt !== undefined && claim.expiresAt < nowS,
  };
}

/** The human view. */
export function renderLedgerClaim(read: LedgerClaim, nowMs: number): string {
  const claim = claimAsOf(read, nowMs);
  const at = (s: number | undefined) => (s === undefined ? undefined : dateWithRelative(s * 1000, nowMs));
  const lease =
    claim.leaseExpiresAt === undefined
      ? claim.status === ClaimStatus.InProgress
        ? "none recorded"
        : undefined
      : `${claim.leaseExpired ? "ran out" : "until"} ${at(claim.leaseExpiresAt)}`;
  return [
    `ledger ${claim.table}: key ${safeCell(claim.key)}, operation ${claim.operation}`,
    fields([
      ["status", claim.status],
      ["owner", claim.owner ? `${claim.owner} (SQS messageId of the claiming message)` : undefined],
      ["claim id", claim.claimId],
      ["payload hash", claim.payloadHash],
      ["claimed", at(claim.claimedAt)],
      ["lease", lease],
      ["completed", at(claim.completedAt)],
      ["expires", claim.expiresAt === undefined ? undefined : `${at(claim.expiresAt)}${claim.retentionExpired ? " — expired" : ""}`],
    ]),
    `  → ${claimMeaning(claim)}`,
  ].join("\n");
}
