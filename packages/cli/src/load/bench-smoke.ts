import { BENCH_DEFAULTS } from "./bench-options";
import { median, SMOKE_LIMITS, smokeFloor, smokeVerdict, SmokeVerdict, summarize, type SampleSummary, type SmokeLimits } from "./bench-math";
import type { BenchResult } from "./bench-report";

/** One arm of the A/B: a quick bench of one checkout for the given batch sizes. */
export type SmokeArm = (batchSizes: readonly number[]) => Promise<BenchResult>;

/**
 * One batch size's judgement in the smoke: the change's rounds against the base's, measured alternately, each round
 * its end-to-end throughput (msg/s). Not the ratio to the storage floor: within one run on one machine the alternation
 * already divides out the machine's speed and drift, and the floor sample moved more than the pipeline did (1,500 to
 * 3,000 ops/s from one run to the next): a change whose rounds ran faster than its base's (median 137.7 against
 * 131.2 msg/s) failed at −18.4 % on the ratio.
 */
export interface SmokeCheck {
  readonly batchSize: number;
  /** The median of the base's round throughputs, msg/s (every base run so far, pooled). */
  readonly base: number;
  /** The change's round throughputs, msg/s (every change run so far, pooled). */
  readonly change: SampleSummary;
  readonly verdict: SmokeVerdict;
  /** 1 = the first pairs, 2 = after the rerun pair. */
  readonly attempt: number;
}

export interface SmokeOutcome {
  readonly checks: readonly SmokeCheck[];
  readonly passed: boolean;
}

/** Per batch size, the round throughputs (msg/s) of a bench run. */
function roundThroughputs(result: BenchResult): Map<number, number[]> {
  return new Map(result.cases.map((c) => [c.batchSize, [...c.throughput.samples]]));
}

function pool(into: Map<number, number[]>, result: BenchResult): void {
  for (const [batchSize, samples] of roundThroughputs(result)) into.set(batchSize, [...(into.get(batchSize) ?? []), ...samples]);
}

/**
 * The CI bench smoke as an A/B: the base commit and the change, each a quick bench, run alternately on one machine
 * (base, change, base, change): alternating divides out the machine's speed and drift, so the change's throughput is
 * held to its base's and never to a figure committed from another machine. A batch size whose pooled median falls more than the tolerance below the base's, with a spread too wide
 * to trust, gets one more pair (that batch size only); its verdict then is final.
 */
export async function runSmoke(
  base: SmokeArm,
  change: SmokeArm,
  batchSizes: readonly number[] = BENCH_DEFAULTS.batchSizes,
  pairs = 2,
  limits: SmokeLimits = SMOKE_LIMITS,
): Promise<SmokeOutcome> {
  const baseRounds = new Map<number, number[]>();
  const changeRounds = new Map<number, number[]>();
  const measure = async (sizes: readonly number[], n: number) => {
    for (let i = 0; i < n; i++) {
      pool(baseRounds, await base(sizes));
      pool(changeRounds, await change(sizes));
    }
  };
  const judge = (batchSize: number, attempt: number): SmokeCheck => {
    const reference = median(baseRounds.get(batchSize) ?? []);
    const measured = summarize(changeRounds.get(batchSize) ?? []);
    return { batchSize, base: reference, change: measured, verdict: smokeVerdict(measured, reference, attempt > 1, limits), attempt };
  };
  await measure(batchSizes, pairs);
  const first = batchSizes.map((b) => judge(b, 1));
  const again = first.filter((c) => c.verdict === SmokeVerdict.Rerun).map((c) => c.batchSize);
  if (again.length > 0) await measure(again, 1);
  const second = again.map((b) => judge(b, 2));
  const checks = [...first, ...second];
  const final = batchSizes.map((b) => [...checks].reverse().find((c) => c.batchSize === b)!);
  return { checks, passed: final.every((c) => c.verdict === SmokeVerdict.Pass) };
}

export function formatSmokeCheck(c: SmokeCheck, limits: SmokeLimits = SMOKE_LIMITS): string {
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  const change = c.base > 0 ? c.change.median / c.base - 1 : 0;
  return (
    `batch ${c.batchSize} (attempt ${c.attempt}): change's median ${c.change.median.toFixed(1)} msg/s ±${pct(c.change.spread)} ` +
    `over ${c.change.samples.length} rounds, base's ${c.base.toFixed(1)} msg/s (${change >= 0 ? "+" : "−"}${pct(Math.abs(change))}), ` +
    `lowest passing ${smokeFloor(c.base, limits).toFixed(1)} msg/s (−${pct(limits.tolerance)}): ${c.verdict.toUpperCase()}` +
    (c.verdict === SmokeVerdict.Rerun ? ` (spread above ±${pct(limits.maxSpread)}: one more pair)` : "")
  );
}
