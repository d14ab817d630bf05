import { ScanCommand, type ScanCommandOutput } from "@aws-sdk/lib-dynamodb";
import { ClaimStatus, LedgerAttribute, OutputName } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { hasOutput, requireOutput } from "./outputs";
import type { OpsContext } from "./types";

/**
 * Claims stuck IN_PROGRESS past their lease, found by a bounded, paginated Scan whose cost is counted.
 *
 * Why a scan and not a sparse index: an index keyed on an attribute only IN_PROGRESS items carry would be written
 * on every claim and deleted on every complete or release, two more write units per applied message (+$1.25 per
 * million at on-demand prices, about 30% of the pipeline's own cost, past its 0.65 × budget), and adding a GSI to an
 * existing ledger is a table update with a backfill on every stack that upgrades. A status check runs now and then;
 * its scan reads each item once at half a read unit per 4 KB (eventually consistent), ~0.05 RRU per ledger item
 * of ~350 B: a million items cost about 43,000 read units, $0.005, a look. The scan stops after `maxItems` items and says so, and the
 * read units DynamoDB reports (`ReturnConsumedCapacity`) are printed. A filter does not lower the cost: DynamoDB
 * bills the items it reads, not the ones it returns.
 */
export interface ScanBudget {
  /** Stop after this many items read (DynamoDB's `ScannedCount`), default {@link DEFAULT_SCAN_ITEMS}. */
  readonly maxItems?: number;
}

const DEFAULT_SCAN_ITEMS = 10_000;
/** Items per Scan page: small enough that a page returns quickly, large enough that pages are few. */
const PAGE_ITEMS = 1_000;

/** What a bounded scan found, how much it read, and what that cost in read units. */
export interface ScanReport<T> {
  readonly table: string;
  readonly found: readonly T[];
  /** Items DynamoDB read. */
  readonly scannedItems: number;
  /** Read capacity units DynamoDB reported for the pages. */
  readonly readUnits: number;
  /** True when the budget stopped the scan before the table's end. */
  readonly truncated: boolean;
}

/** A ledger claim IN_PROGRESS whose lease ran out. */
export interface StuckClaim {
  readonly key: string;
  readonly operation: string;
  readonly owner?: string;
  readonly claimedAt?: number;
  /** Epoch seconds; in the past. */
  readonly leaseExpiresAt: number;
}

/** A Powertools record INPROGRESS past its `in_progress_expiration`. */
export interface StuckPowertoolsRecord {
  readonly id: string;
  /** Epoch milliseconds (Powertools' `in_progress_expiration`); in the past. */
  readonly inProgressExpiration: number;
}

type Item = Record<string, unknown>;

async function boundedScan(ctx: OpsContext, table: string, filter: { expression: string; names: Record<string, string>; values: Record<string, unknown> }, budget: ScanBudget): Promise<{ items: Item[]; scannedItems: number; readUnits: number; truncated: boolean }> {
  const max = budget.maxItems ?? DEFAULT_SCAN_ITEMS;
  const items: Item[] = [];
  let scannedItems = 0;
  let readUnits = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await awsCall("scanning for stuck claims", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the table ${table}` }, () =>
      ctx.dynamodb.send(
        new ScanCommand({
          TableName: table,
          Limit: Math.min(PAGE_ITEMS, max - scannedItems),
          FilterExpression: filter.expression,
          ExpressionAttributeNames: filter.names,
          ExpressionAttributeValues: filter.values,
          ExclusiveStartKey: start,
          ReturnConsumedCapacity: "TOTAL",
        }),
      ),
    );
    items.push(...(page.Items ?? []));
    scannedItems += page.ScannedCount ?? 0;
    readUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    start = page.LastEvaluatedKey;
  } while (start && scannedItems < max);
  return { items, scannedItems, readUnits, truncated: start !== undefined };
}

const num = (item: Item, name: string) => (typeof item[name] === "number" ? (item[name] as number) : undefined);
const text = (item: Item, name: string) => (typeof item[name] === "string" ? (item[name] as string) : undefined);

/** Ledger claims IN_PROGRESS whose lease ran out before `now`. */
export async function findStuckClaims(ctx: OpsContext, budget: ScanBudget = {}): Promise<ScanReport<StuckClaim>> {
  const table = requireOutput(ctx, OutputName.LedgerTable);
  const now = Math.floor(ctx.now() / 1000);
  const scan = await boundedScan(
    ctx,
    table,
    {
      expression: "#status = :inProgress AND #lease < :now",
      names: { "#status": LedgerAttribute.Status, "#lease": LedgerAttribute.LeaseExpiresAt },
      values: { ":inProgress": ClaimStatus.InProgress, ":now": now },
    },
    budget,
  );
  const found = scan.items
    .map((item): StuckClaim => ({
      key: text(item, LedgerAttribute.Key) ?? "",
      operation: text(item, LedgerAttribute.Operation) ?? "",
      owner: text(item, LedgerAttribute.Owner),
      claimedAt: num(item, LedgerAttribute.ClaimedAt),
      leaseExpiresAt: num(item, LedgerAttribute.LeaseExpiresAt) ?? 0,
    }))
    .sort((a, b) => a.leaseExpiresAt - b.leaseExpiresAt);
  return { table, found, scannedItems: scan.scannedItems, readUnits: scan.readUnits, truncated: scan.truncated };
}

/**
 * Powertools records INPROGRESS past their `in_progress_expiration`: an invocation that died or timed out. Powertools
 * lets the next call with the same key run once that time is past, so these block nothing; they show where a
 * function stopped mid-effect (look at the key with `trace`).
 */
export async function findStuckPowertoolsRecords(ctx: OpsContext, budget: ScanBudget = {}): Promise<ScanReport<StuckPowertoolsRecord> | undefined> {
  if (!hasOutput(ctx, OutputName.IdempotencyTable)) return undefined;
  const table = requireOutput(ctx, OutputName.IdempotencyTable);
  const scan = await boundedScan(
    ctx,
    table,
    { expression: "#status = :inProgress AND #expiry < :now", names: { "#status": "status", "#expiry": "in_progress_expiration" }, values: { ":inProgress": "INPROGRESS", ":now": ctx.now() } },
    budget,
  );
  const found = scan.items.map((item) => ({ id: text(item, "id") ?? "", inProgressExpiration: num(item, "in_progress_expiration") ?? 0 })).sort((a, b) => a.inProgressExpiration - b.inProgressExpiration);
  return { table, found, scannedItems: scan.scannedItems, readUnits: scan.readUnits, truncated: scan.truncated };
}
