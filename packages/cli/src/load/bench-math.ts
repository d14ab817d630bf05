/** The arithmetic of `npx effectively-once bench`, kept apart so it can be checked on its own. */

/** Requests per operation made between two snapshots of cumulative counters (operations with none are left out). */
export function requestDelta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [op, n] of Object.entries(after)) {
    const made = n - (before[op] ?? 0);
    if (made > 0) out[op] = made;
  }
  return out;
}

/** All requests of a delta divided by the messages that caused them. */
export function callsPerMessage(delta: Record<string, number>, messages: number): number {
  if (messages <= 0) return 0;
  return Object.values(delta).reduce((a, b) => a + b, 0) / messages;
}

/**
 * How close the pipeline comes to the storage floor: the DynamoDB operations per second it drove (messages per
 * second × measured calls per message) over the operations per second the same dynalite serves a bare client.
 */
export function floorRatio(messagesPerSecond: number, dynamoCallsPerMessage: number, floorOpsPerSecond: number): number {
  return floorOpsPerSecond > 0 ? (messagesPerSecond * dynamoCallsPerMessage) / floorOpsPerSecond : 0;
}

/** Messages per second over a duration in milliseconds. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count / ms) * 1000 : 0;
}

/** The middle of a set of samples (the mean of the two middle ones for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The spread of a set of samples as a share of their median: the farthest sample's distance from the median, so
 * "spread 0.05" reads "every sample within ±5 % of the median". 0 for fewer than two samples or a zero median.
 */
export function spread(values: readonly number[]): number {
  const middle = median(values);
  if (values.length < 2 || middle === 0) return 0;
  return Math.max(...values.map((v) => Math.abs(v - middle))) / Math.abs(middle);
}

/** Samples of one figure and what a reader needs from them. */
export interface SampleSummary {
  readonly samples: readonly number[];
  readonly median: number;
  /** ± share of the median that holds every sample (see {@link spread}). */
  readonly spread: number;
  readonly min: number;
  readonly max: number;
}

export function summarize(samples: readonly number[]): SampleSummary {
  return {
    samples: [...samples],
    median: median(samples),
    spread: spread(samples),
    min: samples.length > 0 ? Math.min(...samples) : 0,
    max: samples.length > 0 ? Math.max(...samples) : 0,
  };
}

/** What the CI bench smoke makes of a median against the figure committed with the code. */
export const SmokeVerdict = {
  /** The median is at most `tolerance` below the committed figure (or above it). */
  Pass: "pass",
  /** The median is more than `tolerance` below, and the samples agreed with each other (spread within bound). */
  Fail: "fail",
  /** The samples disagree too much (spread above bound) to trust the median: measure once more. */
  Rerun: "rerun",
} as const;
export type SmokeVerdict = (typeof SmokeVerdict)[keyof typeof SmokeVerdict];

export interface SmokeLimits {
  /** Largest allowed fall below the committed figure, as a share of it (0.15 = 15 %). */
  readonly tolerance: number;
  /** Largest spread at which a median is trusted (0.05 = ±5 %). */
  readonly maxSpread: number;
}

export const SMOKE_LIMITS: SmokeLimits = { tolerance: 0.15, maxSpread: 0.05 };

/** The lowest median that passes: the committed figure less the tolerance. */
export function smokeFloor(committed: number, limits: SmokeLimits = SMOKE_LIMITS): number {
  return committed * (1 - limits.tolerance);
}

/**
 * Judges one measured summary against a committed median. A median within the tolerance passes whatever the spread
 * (a noisy run that is still fast enough proves the point); a low median with a wide spread asks for a rerun, unless
 * this already is the rerun (`lastTry`), when it fails: a run that is both slow and noisy twice is not a flake.
 */
export function smokeVerdict(measured: SampleSummary, committed: number, lastTry: boolean, limits: SmokeLimits = SMOKE_LIMITS): SmokeVerdict {
  if (measured.median >= smokeFloor(committed, limits)) return SmokeVerdict.Pass;
  if (measured.spread > limits.maxSpread && !lastTry) return SmokeVerdict.Rerun;
  return SmokeVerdict.Fail;
}
