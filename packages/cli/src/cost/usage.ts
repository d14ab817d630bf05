import type { Assumptions } from "./assumptions";
import { ITEMS_STORED_PER_NEW_KEY, ItemKind, PATHS, Table, type DynamoCall, type Path, type PathProfile } from "./paths";
import type { DeployedConfig } from "./types";

/** Counting helpers shared by both designs: DynamoDB units, storage, Lambda log bytes. */

function itemBytes(item: ItemKind, a: Assumptions): number {
  switch (item) {
    case ItemKind.Ledger:
      return a.ledgerItemBytes;
    case ItemKind.Idempotency:
      return a.idempotencyItemBytes;
    case ItemKind.Charge:
      return a.chargeItemBytes;
    case ItemKind.Call:
      return a.callItemBytes;
  }
}

/** Write request units of a write (1 KB each; an update bills the larger of old and new item, here the same size). */
export function writeUnits(call: DynamoCall, a: Assumptions): number {
  return call.operation === "GetItem" ? 0 : Math.ceil(itemBytes(call.item, a) / 1024);
}

/** Read request units of a read (4 KB each; an eventually consistent read is half). */
export function readUnits(call: DynamoCall, a: Assumptions): number {
  if (call.operation !== "GetItem") return 0;
  const units = Math.ceil(itemBytes(call.item, a) / 4096);
  return call.consistent ? units : units / 2;
}

/** WRU and RRU per table, over every delivery of every path. */
export function dynamoUnits(paths: Readonly<Record<Path, PathProfile>>, deliveries: Record<Path, number>, a: Assumptions): Record<Table, { wru: number; rru: number }> {
  const units = {
    [Table.Ledger]: { wru: 0, rru: 0 },
    [Table.Idempotency]: { wru: 0, rru: 0 },
    [Table.Effects]: { wru: 0, rru: 0 },
  };
  for (const path of PATHS) {
    for (const call of paths[path].dynamo) {
      units[call.table].wru += writeUnits(call, a) * deliveries[path];
      units[call.table].rru += readUnits(call, a) * deliveries[path];
    }
  }
  return units;
}

/** Hours AWS bills a month as. */
const HOURS_PER_MONTH = 730;

/**
 * GB-months of storage the applied keys occupy: each item lives `retentionSeconds` (TTL), counted with DynamoDB's
 * per-item overhead. TTL deletes lazily (up to days later), so this is a floor.
 */
export function storageGbMonths(newKeys: number, retentionSeconds: number, a: Assumptions, tables: readonly Table[]): number {
  const bytes = ITEMS_STORED_PER_NEW_KEY.filter((i) => tables.includes(i.table)).reduce((sum, i) => sum + itemBytes(i.item, a) + a.storageItemOverheadBytes, 0);
  return ((newKeys * bytes) / 1024 ** 3) * (retentionSeconds / (HOURS_PER_MONTH * 3600));
}

const QUIET_LEVELS = ["WARN", "ERROR", "CRITICAL", "FATAL", "SILENT"];
const VERBOSE_LEVELS = ["DEBUG", "TRACE"];

/** Application log lines of a successful invocation at a log level: INFO lines as given, none above, twice below. */
function linesAtLevel(level: string, infoLines: number): number {
  const upper = level.toUpperCase();
  if (QUIET_LEVELS.includes(upper)) return 0;
  if (VERBOSE_LEVELS.includes(upper)) return 2 * infoLines;
  return infoLines;
}

/** Platform lines (START/END/REPORT) reach the log group with the Text format or a system log level of INFO or DEBUG. */
function platformLogsOn(fn: DeployedConfig["function"]): boolean {
  return fn.logFormat.toUpperCase() !== "JSON" || ["INFO", "DEBUG"].includes(fn.systemLogLevel.toUpperCase());
}

/** Bytes one successful invocation logs, with per-event metadata. */
export function invocationLogBytes(fn: DeployedConfig["function"], infoLines: number, lineBytes: number, override: number | null, a: Assumptions): number {
  if (override !== null) return override;
  const lines = linesAtLevel(fn.applicationLogLevel, infoLines);
  const platform = platformLogsOn(fn) ? a.platformLogBytesPerInvocation : 0;
  return lines * (lineBytes + a.logEventOverheadBytes) + platform;
}
