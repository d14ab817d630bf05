import { parseArgs, type ParseArgsConfig } from "node:util";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";

/** Shared flag readers: each names the flag and the fix when the value is wrong. */
export function readInt(raw: string | undefined, flag: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw.replaceAll("_", ""));
  if (!Number.isInteger(value) || value < min || value > max) throw new LoadUsageError(flag, `must be a whole number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function readRatio(raw: string | undefined, flag: string, fallback: number, max = 1): number {
  if (raw === undefined) return fallback;
  const percent = raw.endsWith("%");
  const value = Number(percent ? raw.slice(0, -1) : raw) / (percent ? 100 : 1);
  if (!Number.isFinite(value) || value < 0 || value > max) throw new LoadUsageError(flag, `must be a share from 0 to ${max} (e.g. 0.3 or 30%), got "${raw}"`);
  return value;
}

export function readChoice<T extends string>(raw: string | undefined, flag: string, fallback: T, choices: readonly T[]): T {
  if (raw === undefined) return fallback;
  if (!choices.includes(raw as T)) throw new LoadUsageError(flag, `must be one of ${choices.join(", ")}, got "${raw}"`);
  return raw as T;
}

/** `parseArgs` in strict mode; an unknown or malformed flag throws `LoadUsageError` pointing at `helpCommand`. */
// The return type is spelled out: the declaration build cannot name the parsed type's parts (TS4058).
export function parseFlags<const O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: readonly string[],
  options: O,
  helpCommand: string,
): ReturnType<typeof parseArgs<{ args: string[]; strict: true; options: O }>> {
  try {
    return parseArgs({ args: [...argv], strict: true, options });
  } catch (error) {
    throw new LoadUsageError("help", `${(error as Error).message}; see ${helpCommand}`, { cause: error });
  }
}

/** The shares of a seeded stream that are not unique orders, as the soak reads them locally and against AWS. */
export interface MixShares {
  readonly duplicateRatio: number;
  readonly invalidRatio: number;
  readonly conflictRatio: number;
  readonly rejectedRatio: number;
}

/** `--duplicates`, `--invalid`, `--conflicts` and `--rejected` over `defaults`, leaving at least 5% unique orders. */
export function readMixShares(raw: { duplicates?: string; invalid?: string; conflicts?: string; rejected?: string }, defaults: MixShares): MixShares {
  const shares = {
    duplicateRatio: readRatio(raw.duplicates, "duplicates", defaults.duplicateRatio, 0.9),
    invalidRatio: readRatio(raw.invalid, "invalid", defaults.invalidRatio, 0.5),
    conflictRatio: readRatio(raw.conflicts, "conflicts", defaults.conflictRatio, 0.5),
    rejectedRatio: readRatio(raw.rejected, "rejected", defaults.rejectedRatio, 0.5),
  };
  const nonUnique = shares.duplicateRatio + shares.invalidRatio + shares.conflictRatio + shares.rejectedRatio;
  if (nonUnique >= 0.95) throw new LoadUsageError("duplicates", `duplicates + invalid + conflicts + rejected add up to ${nonUnique.toFixed(2)}: leave at least 5% unique orders`);
  return shares;
}
