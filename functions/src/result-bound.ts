import { createHash } from "node:crypto";
import { MAX_RESULT_BYTES } from "@effectively-once/contract";

/**
 * What the handler returns, and Powertools stores, instead of a side effect result whose JSON is larger than
 * `MAX_RESULT_BYTES` (64 KiB, packages/contract/src/limits.ts). The effect was applied; only its result is not carried.
 */
export interface TruncatedResult {
  /** Marks a result that was replaced by this summary. */
  readonly truncated: true;
  /** UTF-8 bytes of the result's JSON. */
  readonly bytes: number;
  /** SHA-256 (hex) of that JSON, to match it against what the downstream logged or kept. */
  readonly sha256: string;
}

/** Called with the stand-in when a result is replaced (the wrapper logs it). */
export type OnTruncated = (standIn: TruncatedResult) => void;

/**
 * `result` itself when its JSON fits `MAX_RESULT_BYTES`, else a {@link TruncatedResult}. Why here: past 256 KiB the
 * Invoke state fails with States.DataLimitExceeded after the effect was applied, and past DynamoDB's 400 KB item
 * Powertools cannot save its record, so every retry would meet the same failure (or run the effect again).
 */
export function boundResult<T>(result: T, onTruncated: OnTruncated): T | TruncatedResult {
  // A value JSON cannot carry (undefined, a cycle, a BigInt) is left as it was: that failure is not about size.
  let text: string | undefined;
  try {
    text = JSON.stringify(result);
  } catch {
    return result;
  }
  // Characters never outnumber UTF-8 bytes, and a character is at most 3 bytes: count bytes only near the bound.
  if (text === undefined || text.length * 3 <= MAX_RESULT_BYTES) return result;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= MAX_RESULT_BYTES) return result;
  const standIn: TruncatedResult = { truncated: true, bytes, sha256: createHash("sha256").update(text, "utf8").digest("hex") };
  onTruncated(standIn);
  return standIn;
}
