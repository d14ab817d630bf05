import type { DynamoPlacement } from "@effectively-once/local-cloud/harness";

export interface BenchOptions {
  /** Pipe batch sizes to measure, one local cloud each. */
  readonly batchSizes: readonly number[];
  /** Alternating rounds per batch size: each a storage-floor sample, then a pipeline sample. */
  readonly rounds: number;
  /** Messages per pipeline sample. */
  readonly messages: number;
  readonly duplicateRatio: number;
  /**
   * Messages sent (and settled) before the first round, so Lambda environments, the JIT and the connections are
   * warm. As many as one pipeline sample: with 200, the first round read 10–15 % below the others every time.
   */
  readonly warmupMessages: number;
  /** Messages of the extra, profiled run (0 = no profile). */
  readonly profileMessages: number;
  /** Seconds per storage-floor measurement (each floor sample, and each part of the one-off full floor). */
  readonly floorSeconds: number;
  /** Calls in flight for the concurrent DynamoDB floor. */
  readonly floorConcurrency: number;
  readonly pipeConcurrency: number;
  readonly maxBacklog: number;
  /** The app (an example name or a folder with stack.ts and profile.ts); undefined = PIPELINE_APP or payments. */
  readonly app?: string;
  /** The module whose \`profile\` export writes the bodies (a path); undefined = the app's profile.ts. */
  readonly messageProfile?: string;
  readonly seed: string;
  readonly settleTimeoutSeconds: number;
  readonly dynamoPlacement?: DynamoPlacement;
  /** One function invocation per claimed record or per batch (`batchInvocation`); undefined = the stack's default. */
  readonly invocation?: BenchInvocation;
  /** Also write each thread's raw profile (`.cpuprofile`, opens in Chrome DevTools) into this folder. */
  readonly profileDir?: string;
}

export const BenchInvocation = { PerRecord: "per-record", PerBatch: "per-batch" } as const;
export type BenchInvocation = (typeof BenchInvocation)[keyof typeof BenchInvocation];

export const BENCH_DEFAULTS: BenchOptions = {
  batchSizes: [1, 10],
  rounds: 5,
  messages: 800,
  duplicateRatio: 0.2,
  warmupMessages: 800,
  profileMessages: 1000,
  floorSeconds: 3,
  floorConcurrency: 32,
  pipeConcurrency: 4,
  maxBacklog: 400,
  seed: "bench",
  settleTimeoutSeconds: 300,
};

/** Where `npx effectively-once bench` writes its JSON unless told otherwise (tmp/ is gitignored). */
export const DEFAULT_BENCH_JSON = "tmp/bench/bench-results.json";

/**
 * `--quick`: the short run of the CI bench smoke (about a minute): fewer and shorter samples, no profile. Its
 * figures are committed apart from the full run's (shorter samples carry more ramp-up and drain per message).
 */
export const BENCH_QUICK: Pick<BenchOptions, "rounds" | "messages" | "warmupMessages" | "profileMessages" | "floorSeconds"> = {
  rounds: 3,
  messages: 300,
  warmupMessages: 300,
  profileMessages: 0,
  floorSeconds: 2,
};
