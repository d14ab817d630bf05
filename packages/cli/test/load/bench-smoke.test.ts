import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { median, smokeFloor, smokeVerdict, SmokeVerdict, spread, summarize } from "../../src/load/bench-math";
import { BenchMode, readCommittedFigures, recordCommittedFigures } from "../../src/load/bench-committed";
import { addRuns, type E2eCaseResult, type E2eRun } from "../../src/load/bench-e2e";
import { BENCH_DEFAULTS, BENCH_QUICK, type BenchOptions } from "../../src/load/bench-options";
import type { BenchResult } from "../../src/load/bench-report";
import { formatSmokeCheck, runSmoke } from "../../src/load/bench-smoke";
import { resolveBase } from "../../src/load/bench-base";
import { execFileSync } from "node:child_process";
import { parseBenchArgs } from "../../src/load/bench-args";

const cpu = { wallMs: 1000, processCpuMs: 1500, mainCpuMs: 500, mainWaitMs: 100, otherThreadsMs: 1000 };
const run = (messages: number, ms: number, puts: number): E2eRun => ({
  messages,
  ms,
  throughput: (messages / ms) * 1000,
  dynamoCalls: { PutItem: puts },
  dynamoCallsPerMessage: puts / messages,
  functionInvocations: messages,
  functionMs: messages * 30,
  cpu,
  lost: 0,
  doubleApplied: 0,
});

/**
 * A bench result whose cases have the given per-round throughputs (msg/s); their ratios to the storage floor are the
 * given ones too unless `ratios` says otherwise (a floor sample that moved on its own).
 */
function resultWith(options: BenchOptions, throughputs: Record<number, readonly number[]>, ratios: Record<number, readonly number[]> = throughputs): BenchResult {
  const cases = options.batchSizes.map((batchSize) => {
    const r = ratios[batchSize];
    return {
      batchSize,
      rounds: r.map((ratio) => ({ floorOpsPerSecond: 1000, run: run(300, 2000, 1500), ratio })),
      run: run(900, 6000, 4500),
      ratio: summarize(r),
      throughput: summarize(throughputs[batchSize]),
      floorSamples: summarize([1000, 1000, 1000]),
      floorRatio: median(r),
    } as unknown as E2eCaseResult;
  });
  return { options, startedAt: "2026-12-02T00:00:00.000Z", host: { cpus: 2, node: "20.20.2", loadAverage: [0.5, 0.4, 0.3] }, cases };
}

describe("Module: bench-math (samples)", () => {
  describe("Function: median", () => {
    it("takes the middle sample of an odd count and the mean of the two middle ones of an even count", () => {
      expect(median([0.61, 0.52, 0.58])).toBe(0.58);
      expect(median([4, 1, 3, 2])).toBe(2.5);
      expect(median([7])).toBe(7);
      expect(median([])).toBe(0);
    });

    it("does not reorder its input", () => {
      const samples = [3, 1, 2];
      median(samples);
      expect(samples).toEqual([3, 1, 2]);
    });
  });

  describe("Function: spread", () => {
    it("is the farthest sample's distance from the median as a share of it", () => {
      // median 0.60; farthest 0.57 (0.03 below) → ±5 %
      expect(spread([0.6, 0.57, 0.61])).toBeCloseTo(0.05, 10);
      // a far outlier above counts as much as one below
      expect(spread([1, 1, 1.2])).toBeCloseTo(0.2, 10);
    });

    it("is 0 for one sample, none, or a zero median", () => {
      expect(spread([0.5])).toBe(0);
      expect(spread([])).toBe(0);
      expect(spread([0, 0, 1])).toBe(0);
    });
  });

  describe("Function: summarize", () => {
    it("keeps the samples and gives median, spread, min and max", () => {
      expect(summarize([0.5, 0.4, 0.6])).toEqual({ samples: [0.5, 0.4, 0.6], median: 0.5, spread: expect.closeTo(0.2, 10), min: 0.4, max: 0.6 });
    });
  });

  describe("Function: smokeVerdict", () => {
    const limits = { tolerance: 0.15, maxSpread: 0.05 };

    it("passes a median at most 15 % below the committed figure, whatever its spread", () => {
      expect(smokeFloor(0.8, limits)).toBeCloseTo(0.68, 10);
      expect(smokeVerdict(summarize([0.68, 0.69, 0.7]), 0.8, false, limits)).toBe(SmokeVerdict.Pass);
      expect(smokeVerdict(summarize([0.5, 0.7, 0.95]), 0.8, false, limits)).toBe(SmokeVerdict.Pass);
      expect(smokeVerdict(summarize([0.9, 0.91, 0.92]), 0.8, false, limits)).toBe(SmokeVerdict.Pass);
    });

    it("fails a median more than 15 % below when the rounds agree (spread within ±5 %)", () => {
      expect(smokeVerdict(summarize([0.66, 0.67, 0.675]), 0.8, false, limits)).toBe(SmokeVerdict.Fail);
    });

    it("asks for one rerun when a low median comes with a wide spread, and fails it on the rerun", () => {
      const noisy = summarize([0.5, 0.6, 0.66]); // median 0.60, spread ±16.7 %
      expect(smokeVerdict(noisy, 0.8, false, limits)).toBe(SmokeVerdict.Rerun);
      expect(smokeVerdict(noisy, 0.8, true, limits)).toBe(SmokeVerdict.Fail);
    });
  });
});

describe("Function: runSmoke (A/B)", () => {
  /**
   * An arm answering the given per-round throughputs (and, if given, other ratios to the storage floor), one answer
   * per call, recording the batch sizes asked for.
   */
  const arm = (answers: readonly Record<number, readonly number[]>[], calls: (readonly number[])[], log: string[], name: string, ratios?: Record<number, readonly number[]>) => {
    let n = 0;
    return async (batchSizes: readonly number[]) => {
      calls.push(batchSizes);
      log.push(name);
      return resultWith({ ...BENCH_DEFAULTS, batchSizes }, answers[Math.min(n++, answers.length - 1)], ratios);
    };
  };

  it("holds the change's msg/s to the base's, not the ratio to a storage floor that moved on its own", async () => {
    // Arrange: the failing run of 2026-12-05, batch 10: the change's rounds ran faster (median 137.7 msg/s against
    // 131.2) while its floor samples ran faster still, so its ratio fell 18.4 % below the base's.
    const base = arm([{ 1: [100, 100, 100], 10: [115.6, 118.3, 131.2, 139.1, 155.0, 154.6] }], [], [], "base", { 1: [0.3, 0.3, 0.3], 10: [0.383, 0.434, 0.452, 0.313, 0.346, 0.318] });
    const change = arm([{ 1: [100, 100, 100], 10: [136.6, 149.5, 137.7, 132.1, 147.7, 121.6] }], [], [], "change", { 1: [0.3, 0.3, 0.3], 10: [0.287, 0.295, 0.281, 0.369, 0.442, 0.312] });

    // Act
    const outcome = await runSmoke(base, change);

    // Assert
    expect(outcome.checks.map((c) => [c.batchSize, c.verdict])).toEqual([[1, "pass"], [10, "pass"]]);
    expect(outcome.passed).toBe(true);
  });

  it("alternates base and change twice and passes when every pooled median is within 15 % of the base's", async () => {
    // Arrange
    const order: string[] = [];
    const baseCalls: (readonly number[])[] = [];
    const base = arm([{ 1: [0.6, 0.61, 0.62], 10: [0.8, 0.82, 0.81] }], baseCalls, order, "base");
    const change = arm([{ 1: [0.55, 0.56, 0.57], 10: [0.8, 0.8, 0.8] }], [], order, "change");

    // Act
    const outcome = await runSmoke(base, change);

    // Assert: 0.56 ≥ 0.61 × 0.85 = 0.5185
    expect(order).toEqual(["base", "change", "base", "change"]);
    expect(baseCalls).toEqual([[1, 10], [1, 10]]);
    expect(outcome.checks.map((c) => [c.batchSize, c.verdict, c.change.samples.length])).toEqual([[1, "pass", 6], [10, "pass", 6]]);
    expect(outcome.passed).toBe(true);
  });

  it("fails a change more than 15 % slower than its base when the rounds agree, whatever the committed figures", async () => {
    const base = arm([{ 1: [90, 91.5, 93], 10: [150, 150, 151.5] }], [], [], "base");
    const change = arm([{ 1: [90, 91.5, 93], 10: [120, 123, 121.5] }], [], [], "change");

    const outcome = await runSmoke(base, change);

    expect(outcome.passed).toBe(false);
    expect(outcome.checks.map((c) => [c.batchSize, c.verdict])).toEqual([[1, "pass"], [10, "fail"]]);
    expect(formatSmokeCheck(outcome.checks[1])).toBe(
      "batch 10 (attempt 1): change's median 121.5 msg/s ±1.2% over 6 rounds, base's 150.0 msg/s (−19.0%), lowest passing 127.5 msg/s (−15.0%): FAIL",
    );
  });

  it("passes a slow machine: the base is as slow, so the ratio holds (the committed figures would have failed it)", async () => {
    // Arrange: both arms at half the committed quick figures (0.330 and 0.383)
    const base = arm([{ 1: [0.16, 0.165, 0.17], 10: [0.19, 0.19, 0.2] }], [], [], "base");
    const change = arm([{ 1: [0.16, 0.166, 0.17], 10: [0.19, 0.195, 0.2] }], [], [], "change");

    // Act
    const outcome = await runSmoke(base, change);

    // Assert
    expect(outcome.passed).toBe(true);
  });

  it("gives only the noisy low batch size one more pair, pooled, and that verdict is final", async () => {
    // Arrange: batch 10 of the change is low and noisy in the first pairs, steady and fast in the extra one
    const baseCalls: (readonly number[])[] = [];
    const base = arm([{ 1: [0.6, 0.61, 0.62], 10: [0.9, 0.9, 0.9] }], baseCalls, [], "base");
    const change = arm(
      [{ 1: [0.6, 0.61, 0.62], 10: [0.5, 0.7, 0.8] }, { 1: [0.6, 0.61, 0.62], 10: [0.5, 0.7, 0.8] }, { 10: [0.9, 0.9, 0.9] }],
      [],
      [],
      "change",
    );

    // Act
    const outcome = await runSmoke(base, change);

    // Assert: pooled change rounds of batch 10: 0.5 0.5 0.7 0.7 0.8 0.8 0.9 0.9 0.9 → median 0.8 ≥ 0.765
    expect(baseCalls).toEqual([[1, 10], [1, 10], [10]]);
    expect(outcome.checks.map((c) => [c.batchSize, c.attempt, c.verdict])).toEqual([[1, 1, "pass"], [10, 1, "rerun"], [10, 2, "pass"]]);
    expect(outcome.passed).toBe(true);
  });

  it("fails when the extra pair is low too, however noisy", async () => {
    const base = arm([{ 1: [0.6, 0.61, 0.62], 10: [0.9, 0.9, 0.9] }], [], [], "base");
    const change = arm([{ 1: [0.6, 0.61, 0.62], 10: [0.4, 0.6, 0.8] }], [], [], "change");

    const outcome = await runSmoke(base, change);

    expect(outcome.checks.map((c) => c.verdict)).toEqual(["pass", "rerun", "fail"]);
    expect(outcome.passed).toBe(false);
  });
});

describe("Function: resolveBase (a real git repository)", () => {
  let repo: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  beforeEach(() => {
    repo = mkdtempSync(join(tmpdir(), "bench-base-"));
    git("init", "-q");
    for (const n of [1, 2, 3]) git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", `c${n}`);
  });
  afterEach(() => rmSync(repo, { recursive: true, force: true }));

  it("takes the ancestor named in bench/base-commit", () => {
    const first = git("rev-list", "--max-parents=0", "HEAD");
    mkdirSync(join(repo, "bench"));
    writeFileSync(join(repo, "bench", "base-commit"), `${first}\n`);

    expect(resolveBase(repo)).toEqual({ rev: first, note: `base ${first.slice(0, 7)} (bench/base-commit)` });
  });

  it("falls back to HEAD's parent, saying why, when the file is missing, names HEAD or names no commit", () => {
    const parent = git("rev-parse", "HEAD~1");
    expect(resolveBase(repo).note).toBe(`base ${parent.slice(0, 7)} (HEAD's parent: no bench/base-commit)`);
    expect(resolveBase(repo, git("rev-parse", "HEAD"))).toMatchObject({ rev: parent });
    expect(resolveBase(repo, "0123456789abcdef0123456789abcdef01234567").note).toContain("is not a commit here");
  });
});

describe("Module: bench-committed", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "bench-figures-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("records a run's medians under its mode and keeps the other mode's figures", () => {
    // Arrange
    const file = join(dir, "figures.json");
    const options = { ...BENCH_DEFAULTS, ...BENCH_QUICK, batchSizes: [1] };

    // Act
    recordCommittedFigures(file, BenchMode.Full, resultWith({ ...BENCH_DEFAULTS, batchSizes: [10] }, { 10: [150, 150, 150] }, { 10: [0.8, 0.81, 0.82] }));
    recordCommittedFigures(file, BenchMode.Quick, resultWith(options, { 1: [150, 150, 150] }, { 1: [0.6, 0.6123, 0.62] }));

    // Assert
    const figures = readCommittedFigures(file);
    expect(figures.modes.full?.cases).toEqual([{ batchSize: 10, ratio: 0.81, ratioSpread: 0.012, throughput: 150, floorOpsPerSecond: 1000, dynamoCallsPerMessage: 5 }]);
    expect(figures.modes.quick).toMatchObject({ rounds: 3, messagesPerSample: 300, host: "2 cores, Node 20.20.2, load average at start 0.50 0.40 0.30" });
    expect(figures.modes.quick?.cases[0].ratio).toBe(0.612);
  });

  it("refuses a file of another kind", () => {
    const file = join(dir, "other.json");
    writeFileSync(file, JSON.stringify({ kind: "pipeline-figures", cases: [] }));
    expect(() => readCommittedFigures(file)).toThrow(/not a bench figures file/);
    expect(readFileSync(file, "utf8")).toContain("pipeline-figures");
  });
});

describe("Function: addRuns", () => {
  it("adds the samples' counts and recomputes the rates from the sums", () => {
    const total = addRuns([run(300, 2000, 1500), run(100, 2000, 700)]);
    expect(total).toMatchObject({ messages: 400, ms: 4000, throughput: 100, dynamoCalls: { PutItem: 2200 }, dynamoCallsPerMessage: 5.5 });
    expect(total.cpu.processCpuMs).toBe(3000);
  });
});

describe("Function: parseBenchArgs (rounds and quick)", () => {
  it("alternates 5 rounds by default and refuses fewer than 3", () => {
    expect(parseBenchArgs([]).options.rounds).toBe(5);
    expect(() => parseBenchArgs(["--rounds", "2"])).toThrow("--rounds: must be a whole number from 3 to 100");
  });

  it("--quick takes the smoke's short settings, and explicit flags still win", () => {
    expect(parseBenchArgs(["--quick"]).options).toMatchObject(BENCH_QUICK);
    expect(parseBenchArgs(["--quick", "--messages", "500"]).options).toMatchObject({ ...BENCH_QUICK, messages: 500 });
  });

  it("--record writes bench/figures.json, --record-file another file", () => {
    expect(parseBenchArgs([]).recordFile).toBeUndefined();
    expect(parseBenchArgs(["--record"]).recordFile).toBe("bench/figures.json");
    expect(parseBenchArgs(["--record-file", "tmp/f.json"]).recordFile).toBe("tmp/f.json");
  });
});
