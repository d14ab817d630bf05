import { createRng } from "../faults";
import type { MessageProfile } from "@effectively-once/pipeline";
import { labelMessages, type BodyLabel, type StreamContract } from "../stack/contract";

/** Why a message is in the load stream, and so what must become of it. */
export const LoadKind = {
  /** The first message of a business key. */
  Unique: "unique",
  /** The same body again, right behind the original (often in the same batch). */
  ConcurrentDuplicate: "concurrent-duplicate",
  /** The same body again, later (a redelivery after the original was processed). */
  LateDuplicate: "late-duplicate",
  /** The key of an earlier message with another payload: must never be applied. */
  Conflict: "payload-conflict",
  /** A body that is not JSON. */
  InvalidJson: "invalid-json",
  /** JSON without the business key fields. */
  MissingField: "missing-field",
  /** A message the downstream refuses for good (the profile's `rejected`): quarantined as `rejected`. */
  Rejected: "rejected",
} as const;
export type LoadKind = (typeof LoadKind)[keyof typeof LoadKind];

/** One message to publish, labelled with its effect key and payload hash (`src/stack/contract.ts`). */
export interface LoadMessage extends BodyLabel {
  /** What the message is meant to exercise (valid, invalid, refused, a copy, a conflict, …). */
  readonly kind: LoadKind;
  /** The body sent. */
  readonly body: string;
}

export interface StreamOptions {
  /** Messages in all. */
  readonly messages: number;
  /** Share of messages that repeat an earlier body, 0..0.9. */
  readonly duplicateRatio: number;
  /** Share of invalid bodies (half bad JSON, half a missing key field). */
  readonly invalidRatio?: number;
  /** Share of payload conflicts (an earlier key with another payload). */
  readonly conflictRatio?: number;
  /** Share of messages the function rejects (0 when the profile has no `rejected`). */
  readonly rejectedRatio?: number;
  /** Share of duplicates sent right behind their original, the rest later (default 0.5). */
  readonly concurrentShare?: number;
  readonly seed: string | number;
  /** Part of every key, so runs never share keys. */
  readonly runId: string;
}

/** Late duplicates and conflicts pick an original among the last this-many unique messages. */
const LOOKBACK = 2000;

/** How many of each kind a stream of `messages` holds (rounded; uniques take the remainder). */
export function streamMix(options: StreamOptions): Record<LoadKind, number> {
  const n = options.messages;
  const duplicates = Math.round(n * options.duplicateRatio);
  const concurrent = Math.round(duplicates * (options.concurrentShare ?? 0.5));
  const invalid = Math.round(n * (options.invalidRatio ?? 0));
  const conflicts = Math.round(n * (options.conflictRatio ?? 0));
  const rejected = Math.round(n * (options.rejectedRatio ?? 0));
  const invalidJson = Math.ceil(invalid / 2);
  const unique = n - duplicates - invalid - conflicts - rejected;
  return {
    [LoadKind.Unique]: unique,
    [LoadKind.ConcurrentDuplicate]: concurrent,
    [LoadKind.LateDuplicate]: duplicates - concurrent,
    [LoadKind.Conflict]: conflicts,
    [LoadKind.InvalidJson]: invalidJson,
    [LoadKind.MissingField]: invalid - invalidJson,
    [LoadKind.Rejected]: rejected,
  };
}

/**
 * A reproducible stream for any stack: the kinds are shuffled with the seed, each duplicate or conflict refers to
 * an earlier unique message (a concurrent duplicate to the one just sent), so every message has a known fate. The
 * bodies come from the app's profile; keys and payload hashes from the stack's contract. Throws when the mix leaves
 * no room for the unique messages the others need, or asks for rejected messages the profile cannot write.
 */
export async function generateStream(profile: MessageProfile, contract: StreamContract, options: StreamOptions): Promise<LoadMessage[]> {
  const mix = streamMix(options);
  if (mix.unique < 1 || (mix.unique < 2 && options.messages > 1)) {
    throw new RangeError(`the stream has ${mix.unique} unique messages: lower the duplicate/invalid/conflict ratios or send more messages`);
  }
  if (mix.rejected > 0 && !profile.rejected) throw new RangeError("rejectedRatio > 0, but the app's profile has no `rejected` message: set it to 0");
  const rng = createRng(`${options.seed}:stream`);
  const random = () => rng.next();
  // The first message is always unique, so every duplicate and conflict has an original before it.
  const kinds: LoadKind[] = [];
  for (const [kind, count] of Object.entries(mix) as [LoadKind, number][]) for (let i = 0; i < count - (kind === LoadKind.Unique ? 1 : 0); i++) kinds.push(kind);
  for (let i = kinds.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [kinds[i], kinds[j]] = [kinds[j], kinds[i]];
  }
  kinds.unshift(LoadKind.Unique);

  const out: { kind: LoadKind; body: string }[] = [];
  const uniques: Record<string, unknown>[] = [];
  let seq = 0;
  const lastKeyField = contract.keyFields[contract.keyFields.length - 1];
  const earlier = () => uniques[uniques.length - 1 - Math.floor(rng.next() * Math.min(uniques.length, LOOKBACK))];
  const push = (kind: LoadKind, body: unknown) => out.push({ kind, body: JSON.stringify(body) });
  for (const kind of kinds) {
    switch (kind) {
      case LoadKind.Unique: {
        const body = profile.unique(seq++, options.runId, random);
        uniques.push(body);
        push(kind, body);
        break;
      }
      case LoadKind.ConcurrentDuplicate:
        push(kind, uniques[uniques.length - 1]);
        break;
      case LoadKind.LateDuplicate:
        push(kind, earlier());
        break;
      case LoadKind.Conflict:
        push(kind, profile.conflict(earlier()));
        break;
      case LoadKind.Rejected:
        // Well-formed, so it reaches the function, whose downstream refuses it for good.
        push(kind, profile.rejected!(seq++, options.runId));
        break;
      case LoadKind.InvalidJson:
        out.push({ kind, body: JSON.stringify(profile.unique(seq++, options.runId, random)).slice(0, -1) });
        break;
      case LoadKind.MissingField: {
        const body: Record<string, unknown> = { ...profile.unique(seq++, options.runId, random) };
        delete body[lastKeyField];
        push(kind, body);
        break;
      }
    }
  }
  return labelMessages(out, contract);
}
