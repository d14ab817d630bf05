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
