import { DeleteItemCommand, DescribeTableCommand, ScanCommand } from "@aws-sdk/client-dynamodb";
import type { AttributeValue, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { InvalidDynamoOptionError } from "./errors";

/** A table's `ttl { attribute_name, enabled = true }` block. */
interface TtlTable {
  tableName: string;
  attributeName: string;
}

interface TtlSweeperOptions {
  /** A client for the emulator (passed in, so tests and the local cloud choose endpoint and retries). */
  client: DynamoDBClient;
  tables: TtlTable[];
  /** Time between sweeps (default 1,000 ms); 0 = no timer, call sweepOnce() yourself. */
  intervalMs?: number;
  /** Epoch milliseconds (default Date.now); inject one to expire items without waiting. */
  clock?: () => number;
  /** Called when a background sweep fails (the sweeper keeps going). */
  onError?: (error: unknown) => void;
}

interface SweepResult {
  /** Items deleted by this sweep, per table. */
  deleted: Record<string, number>;
  /** Expired items that were refreshed between scan and delete (the condition saved them). */
  skipped: number;
}

interface TtlSweeperStats {
  sweeps: number;
  deleted: number;
  deletedByTable: Record<string, number>;
  skipped: number;
  errors: number;
}

export interface TtlSweeper {
  sweepOnce(): Promise<SweepResult>;
  stats(): TtlSweeperStats;
  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void>;
}

/**
 * DynamoDB TTL ignores values more than five years in the past (a guard against milliseconds or bogus values
 * being taken for seconds); the sweeper does the same.
 */
const FIVE_YEARS_SECONDS = 5 * 365 * 24 * 3600;

/**
 * Deletes expired items like DynamoDB TTL does, since dynalite has none (`UpdateTimeToLive` is an unknown
 * operation there). An item is expired when its TTL attribute is a Number of epoch seconds below now. AWS
 * deletes lazily (typically within days) and so readers must still check expiry; here deletion happens within
 * one interval. Each delete re-checks expiry in its condition, so an item refreshed after the scan survives.
 */
export function startTtlSweeper(options: TtlSweeperOptions): TtlSweeper {
  const { client } = options;
  const clock = options.clock ?? Date.now;
  const intervalMs = options.intervalMs ?? 1_000;
  checkOptions(options, intervalMs);
  const keyNames = new Map<string, string[]>();
  const stats: TtlSweeperStats = { sweeps: 0, deleted: 0, deletedByTable: {}, skipped: 0, errors: 0 };
  let running: Promise<SweepResult> | undefined;

  async function keysOf(tableName: string): Promise<string[]> {
    const known = keyNames.get(tableName);
    if (known) return known;
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const names = (Table?.KeySchema ?? []).map((k) => k.AttributeName as string);
    keyNames.set(tableName, names);
    return names;
  }

  async function sweepTable(table: TtlTable, result: SweepResult): Promise<void> {
    const keys = await keysOf(table.tableName);
    const nowSeconds = Math.floor(clock() / 1000);
    const names: Record<string, string> = { "#ttl": table.attributeName };
    keys.forEach((key, i) => (names[`#k${i}`] = key));
    let startKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(
        new ScanCommand({
          TableName: table.tableName,
          ConsistentRead: true,
          ProjectionExpression: keys.map((_, i) => `#k${i}`).join(", "),
          FilterExpression: "#ttl < :now AND #ttl >= :oldest",
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ":now": { N: String(nowSeconds) },
            ":oldest": { N: String(nowSeconds - FIVE_YEARS_SECONDS) },
          },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const key of page.Items ?? []) {
        try {
          await client.send(
            new DeleteItemCommand({
              TableName: table.tableName,
              Key: key,
              ConditionExpression: "#ttl < :now",
              ExpressionAttributeNames: { "#ttl": table.attributeName },
              ExpressionAttributeValues: { ":now": { N: String(nowSeconds) } },
            }),
          );
          result.deleted[table.tableName] = (result.deleted[table.tableName] ?? 0) + 1;
        } catch (error) {
          if ((error as Error).name !== "ConditionalCheckFailedException") throw error;
          result.skipped += 1;
        }
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
  }

  async function sweep(): Promise<SweepResult> {
    const result: SweepResult = { deleted: {}, skipped: 0 };
    try {
      for (const table of options.tables) await sweepTable(table, result);
    } finally {
      stats.sweeps += 1;
      stats.skipped += result.skipped;
      for (const [name, count] of Object.entries(result.deleted)) {
        stats.deleted += count;
        stats.deletedByTable[name] = (stats.deletedByTable[name] ?? 0) + count;
      }
    }
    return result;
  }

  /** One sweep at a time: a call during a sweep waits for it, then runs its own (it may need a later "now"). */
  function sweepOnce(): Promise<SweepResult> {
    const previous = running ?? Promise.resolve(undefined);
    const next = previous.catch(() => undefined).then(sweep);
    running = next;
    void next.finally(() => {
      if (running === next) running = undefined;
    }).catch(() => undefined);
    return next;
  }

  const timer =
    intervalMs > 0
      ? setInterval(() => {
          if (running) return; // a slow sweep is still going: skip this tick rather than pile up
          sweepOnce().catch((error: unknown) => {
            stats.errors += 1;
            options.onError?.(error);
          });
        }, intervalMs)
      : undefined;
  timer?.unref(); // a janitor must not keep the process alive; stop() is still the way to end it

  return {
    sweepOnce,
    stats: () => ({ ...stats, deletedByTable: { ...stats.deletedByTable } }),
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

function checkOptions(options: TtlSweeperOptions, intervalMs: number): void {
  if (!options.client) throw new InvalidDynamoOptionError("client is required: pass a DynamoDBClient for the emulator");
  if (!Array.isArray(options.tables)) throw new InvalidDynamoOptionError("tables must be an array of { tableName, attributeName }");
  options.tables.forEach((table, i) => {
    if (!table?.tableName) throw new InvalidDynamoOptionError(`tables[${i}].tableName is required`);
    if (!table.attributeName) {
      throw new InvalidDynamoOptionError(`tables[${i}].attributeName is required (the ttl block's attribute_name)`);
    }
  });
  if (!(intervalMs >= 0)) throw new InvalidDynamoOptionError("intervalMs must be ≥ 0 (0 = sweep only on sweepOnce())");
}
