import { BENCH_DEFAULTS, BENCH_QUICK, type BenchOptions } from "./bench-options";
import { BenchMode, type CommittedFigures } from "./bench-committed";
import { SMOKE_LIMITS, smokeFloor, smokeVerdict, SmokeVerdict, type SmokeLimits } from "./bench-math";
import type { E2eCaseResult } from "./bench-e2e";
import type { BenchResult } from "./bench-report";
import { LoadError } from "@effectively-once/local-cloud/harness";

/** One batch size's judgement in the smoke. */
export interface SmokeCheck {
  readonly batchSize: number;
  readonly committed: number;
  readonly median: number;
  readonly spread: number;
  readonly verdict: SmokeVerdict;
  /** 1 = first run, 2 = the rerun. */
  readonly attempt: number;
}

export interface SmokeOutcome {
  readonly checks: readonly SmokeCheck[];
  readonly passed: boolean;
}

/** The quick run's options for the committed quick figures' batch sizes. */
function smokeOptions(figures: CommittedFigures, file: string): BenchOptions {
  const quick = figures.modes[BenchMode.Quick];
  if (!quick || quick.cases.length === 0) throw new LoadError(`${file}: no quick figures to hold the smoke to; record them with npm run bench -- --quick --record`);
  return { ...BENCH_DEFAULTS, ...BENCH_QUICK, batchSizes: quick.cases.map((c) => c.batchSize) };
}

/**
 * The CI bench smoke: a quick bench, each batch size's median ratio held against the committed quick figure; a
 * batch size whose low median comes with a spread above the bound is measured once more (only that one), and its
 * second verdict is final.
 */
export async function runSmoke(
  figures: CommittedFigures,
  file: string,
  bench: (options: BenchOptions) => Promise<BenchResult>,
  limits: SmokeLimits = SMOKE_LIMITS,
): Promise<SmokeOutcome> {
  const options = smokeOptions(figures, file);
  const committed = new Map(figures.modes[BenchMode.Quick]!.cases.map((c) => [c.batchSize, c.ratio]));
  const judge = (c: E2eCaseResult, attempt: number): SmokeCheck => ({
    batchSize: c.batchSize,
    committed: committed.get(c.batchSize)!,
    median: c.ratio.median,
    spread: c.ratio.spread,
    verdict: smokeVerdict(c.ratio, committed.get(c.batchSize)!, attempt > 1, limits),
    attempt,
  });
  const first = (await bench(options)).cases.map((c) => judge(c, 1));
  const again = first.filter((c) => c.verdict === SmokeVerdict.Rerun).map((c) => c.batchSize);
  const second = again.length > 0 ? (await bench({ ...options, batchSizes: again })).cases.map((c) => judge(c, 2)) : [];
  const checks = [...first, ...second];
  const final = options.batchSizes.map((b) => [...checks].reverse().find((c) => c.batchSize === b)!);
  return { checks, passed: final.every((c) => c.verdict === SmokeVerdict.Pass) };
}

export function formatSmokeCheck(c: SmokeCheck, limits: SmokeLimits = SMOKE_LIMITS): string {
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  return (
    `batch ${c.batchSize} (run ${c.attempt}): median ratio ${c.median.toFixed(3)} ±${pct(c.spread)}, committed ${c.committed.toFixed(3)}, ` +
    `lowest passing ${smokeFloor(c.committed, limits).toFixed(3)} (−${pct(limits.tolerance)}): ${c.verdict.toUpperCase()}` +
    (c.verdict === SmokeVerdict.Rerun ? ` (spread above ±${pct(limits.maxSpread)}: measuring once more)` : "")
  );
}
