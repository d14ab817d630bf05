import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LoadError } from "@effectively-once/local-cloud/harness";
import type { BenchResult } from "./bench-report";

/** The file that holds the bench figures published with the code (documentation: the CI smoke holds a change to its base commit). */
export const COMMITTED_FIGURES_FILE = "bench/figures.json";

/** The two modes of `npx effectively-once bench`: the default run, and `--quick` (the CI smoke's). */
export const BenchMode = { Full: "full", Quick: "quick" } as const;
export type BenchMode = (typeof BenchMode)[keyof typeof BenchMode];

/** One batch size's committed figures: medians over the rounds of one run, and that run's spread. */
export interface CommittedCase {
  readonly batchSize: number;
  /** Median of the per-round ratios (pipeline DynamoDB ops/s ÷ floor sample). */
  readonly ratio: number;
  /** ± share of the median that held every round. */
  readonly ratioSpread: number;
  /** Median end-to-end msg/s over the rounds. */
  readonly throughput: number;
  /** Median floor sample, PutItem ops/s. */
  readonly floorOpsPerSecond: number;
  /** Measured over all rounds. */
  readonly dynamoCallsPerMessage: number;
}

export interface CommittedRun {
  /** When the run started (ISO 8601) and on what: these are one machine's figures, not a law. */
  readonly measuredAt: string;
  readonly host: string;
  readonly rounds: number;
  readonly messagesPerSample: number;
  readonly cases: readonly CommittedCase[];
}

export interface CommittedFigures {
  readonly kind: "bench-committed-figures";
  readonly note: string;
  readonly modes: Partial<Record<BenchMode, CommittedRun>>;
}

const NOTE =
  "Medians of npx effectively-once bench on the machine named in host (2 cores shared with other work); the CI smoke (npm run bench:smoke) " +
  "fails when a quick run's median ratio falls more than 15 % below the quick figures here. Record with npx effectively-once bench [--quick] --record.";

function committedRun(result: BenchResult): CommittedRun {
  return {
    measuredAt: result.startedAt,
    host: `${result.host.cpus} cores, Node ${result.host.node}, load average at start ${result.host.loadAverage.map((l) => l.toFixed(2)).join(" ")}`,
    rounds: result.options.rounds,
    messagesPerSample: result.options.messages,
    cases: result.cases.map((c) => ({
      batchSize: c.batchSize,
      ratio: round3(c.ratio.median),
      ratioSpread: round3(c.ratio.spread),
      throughput: Math.round(c.throughput.median * 10) / 10,
      floorOpsPerSecond: Math.round(c.floorSamples.median),
      dynamoCallsPerMessage: Math.round(c.run.dynamoCallsPerMessage * 100) / 100,
    })),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function readCommittedFigures(file: string = COMMITTED_FIGURES_FILE): CommittedFigures {
  if (!existsSync(file)) return { kind: "bench-committed-figures", note: NOTE, modes: {} };
  let parsed: CommittedFigures;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8")) as CommittedFigures;
  } catch (error) {
    throw new LoadError(`${file}: not JSON (${(error as Error).message}); record it again with npx effectively-once bench --record`, { cause: error });
  }
  if (parsed?.kind !== "bench-committed-figures" || typeof parsed.modes !== "object" || parsed.modes === null) {
    throw new LoadError(`${file}: not a bench figures file (kind "bench-committed-figures"); record it again with npx effectively-once bench --record`);
  }
  return parsed;
}

/** Stores a run as its mode's committed figures, keeping the other mode's. */
export function recordCommittedFigures(file: string, mode: BenchMode, result: BenchResult): CommittedFigures {
  const before = readCommittedFigures(file);
  const figures: CommittedFigures = { kind: "bench-committed-figures", note: NOTE, modes: { ...before.modes, [mode]: committedRun(result) } };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
  return figures;
}
