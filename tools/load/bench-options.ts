import type { DynamoPlacement } from "../../packages/local-cloud/src/dynamodb";

export interface BenchOptions {
  /** Pipe batch sizes to measure, one local cloud each. */
  readonly batchSizes: readonly number[];
  /** Messages per measured end-to-end run. */
  readonly messages: number;
  readonly duplicateRatio: number;
  /** Messages sent (and settled) before the measured run, so Lambda environments are warm. */
  readonly warmupMessages: number;
  /** Messages of the extra, profiled run (0 = no profile). */
  readonly profileMessages: number;
  /** Seconds per storage-floor measurement. */
  readonly floorSeconds: number;
  /** Calls in flight for the concurrent DynamoDB floor. */
  readonly floorConcurrency: number;
  readonly pipeConcurrency: number;
  readonly maxBacklog: number;
  /** The app (an example name or a folder with stack.ts and profile.ts); undefined = PIPELINE_APP or payments. */
  readonly app?: string;
  readonly seed: string;
  readonly settleTimeoutSeconds: number;
  readonly dynamoPlacement?: DynamoPlacement;
  /** Also write each thread's raw profile (`.cpuprofile`, opens in Chrome DevTools) into this folder. */
  readonly profileDir?: string;
}

export const BENCH_DEFAULTS: BenchOptions = {
  batchSizes: [1, 10],
  messages: 2000,
  duplicateRatio: 0.2,
  warmupMessages: 200,
  profileMessages: 1000,
  floorSeconds: 3,
  floorConcurrency: 32,
  pipeConcurrency: 4,
  maxBacklog: 400,
  seed: "bench",
  settleTimeoutSeconds: 300,
};

/** Where `npm run bench` writes its JSON unless told otherwise (tmp/ is gitignored). */
export const DEFAULT_BENCH_JSON = "tmp/bench/bench-results.json";
