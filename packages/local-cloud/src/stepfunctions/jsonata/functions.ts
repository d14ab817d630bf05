/**
 * The JSONata functions Step Functions adds ($partition, $range, $hash, $random, $uuid, $parse) and the one it
 * removes ($eval). Registered on every compiled expression.
 */
import { createHash, randomUUID } from "node:crypto";

/** Algorithms accepted by `$hash` and `States.Hash`, mapped to Node's names. */
export const HASH_ALGORITHMS: Readonly<Record<string, string>> = {
  MD5: "md5",
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512",
};

/** A JSONata-style error: jsonata formats `code` and `message` into the cause. */
function fnError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function hashHex(value: string, algorithm: string): string {
  const node = HASH_ALGORITHMS[algorithm];
  if (!node) {
    throw fnError(
      "States.Hash",
      `The algorithm '${algorithm}' is not supported; use one of ${Object.keys(HASH_ALGORITHMS).join(", ")}`,
    );
  }
  return createHash(node).update(value, "utf8").digest("hex");
}

/** Deterministic generator for a seeded `$random(seed)` (mulberry32). AWS's sequence differs; only determinism holds. */
export function seededRandom(seed: number): number {
  let t = (Math.trunc(seed) + 0x6d2b79f5) | 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function partition(array: unknown[] | undefined, size: number): unknown[][] | undefined {
  if (array === undefined) return undefined;
  if (!Number.isInteger(size) || size <= 0) throw fnError("D3150", "The chunk size argument of $partition must be a positive integer");
  const out: unknown[][] = [];
  for (let i = 0; i < array.length; i += size) out.push(array.slice(i, i + size));
  return out;
}

function range(start: number, end: number, step: number): unknown {
  if (![start, end, step].every(Number.isInteger)) throw fnError("D3151", "The arguments of $range must be integers");
  if (step === 0) throw fnError("D3151", "The step argument of $range must not be 0");
  const out: number[] = [];
  for (let v = start; step > 0 ? v <= end : v >= end; v += step) {
    out.push(v);
    if (out.length > 1000) throw fnError("D3151", "$range can produce at most 1000 items");
  }
  // JSONata sequence semantics (AWS returns a bare number for a one-item range).
  return out.length === 1 ? out[0] : out;
}

function parse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw fnError("D3141", `$parse: the argument is not valid JSON: ${(err as Error).message}`);
  }
}

/** name -> [implementation, JSONata signature] */
export const SFN_FUNCTIONS: ReadonlyArray<readonly [string, (...args: never[]) => unknown, string]> = [
  ["partition", partition as (...args: never[]) => unknown, "<a-n:a>"],
  ["range", range as (...args: never[]) => unknown, "<nnn:x>"],
  ["hash", ((value: string, algorithm: string) => (value === undefined ? undefined : hashHex(value, algorithm))) as (...args: never[]) => unknown, "<s-s:s>"],
  ["random", ((seed?: number) => (seed === undefined ? Math.random() : seededRandom(seed))) as (...args: never[]) => unknown, "<n?:n>"],
  ["uuid", (() => randomUUID()) as (...args: never[]) => unknown, "<:s>"],
  ["parse", parse as (...args: never[]) => unknown, "<s-:x>"],
];
