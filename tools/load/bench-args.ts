import { parseArgs } from "node:util";
import { DynamoPlacement } from "../../packages/local-cloud/src/dynamodb";
import { readChoice, readInt, readRatio } from "./args";
import { LoadUsageError } from "../../packages/local-cloud/src/soak/errors";
import { BENCH_DEFAULTS, DEFAULT_BENCH_JSON, type BenchOptions } from "./bench-options";

export const BENCH_HELP = `Usage: npm run bench [-- options]

Measures in one run, side by side, for each pipe batch size (a fresh local cloud each):
  (a) the storage floor: conditional PutItem ops/s on the same dynalite (1 and N in flight), SQS send and
      receive+delete msg/s on the same fauxqs;
  (b) end-to-end msg/s through the whole pipeline (warm functions, duplicates included);
  (c) the ratio of (b) × the measured DynamoDB calls per message to the floor;
  (d) where the main thread's time goes (CPU profile of an extra run) and the CPU of the other threads.
Prints a table and writes JSON.

Options:
  --batch-sizes <list>  comma-separated pipe batch sizes (default ${BENCH_DEFAULTS.batchSizes.join(",")})
  --messages <n>        messages per measured run (default ${BENCH_DEFAULTS.messages})
  --duplicates <r>      share of duplicates (default ${BENCH_DEFAULTS.duplicateRatio})
  --warmup <n>          messages settled before measuring (default ${BENCH_DEFAULTS.warmupMessages})
  --profile <n>         messages of the profiled run; 0 = no profile (default ${BENCH_DEFAULTS.profileMessages})
  --floor-seconds <s>   seconds per floor measurement (default ${BENCH_DEFAULTS.floorSeconds})
  --floor-concurrency <n>  DynamoDB calls in flight for the concurrent floor (default ${BENCH_DEFAULTS.floorConcurrency})
  --pollers <n>         pipe pollers (default ${BENCH_DEFAULTS.pipeConcurrency})
  --backlog <n>         the producer waits while the queue holds this many messages (default ${BENCH_DEFAULTS.maxBacklog})
  --app <name|dir>      the app whose stack and profile to run (default $PIPELINE_APP or payments)
  --seed <s>            seed of the streams (default "${BENCH_DEFAULTS.seed}")
  --dynamo <where>      dynalite placement: in-process | worker (default: the local cloud's)
  --json-file <file>    where to write the JSON (default ${DEFAULT_BENCH_JSON})
  --profile-dir <dir>   also write every thread's raw .cpuprofile there (open in Chrome DevTools)
  --write-figures <file>  also write the per-batch figures npm run capacity -- --figures reads (docs/capacity.md)
  -h, --help            this text`;

export interface BenchCli {
  readonly help: boolean;
  readonly options: BenchOptions;
  readonly jsonFile: string;
  /** Where to write the figures for `npm run capacity -- --figures`; undefined = not written. */
  readonly figuresFile?: string;
}

export function parseBenchArgs(argv: readonly string[]): BenchCli {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      options: {
        "batch-sizes": { type: "string" },
        messages: { type: "string" },
        duplicates: { type: "string" },
        warmup: { type: "string" },
        profile: { type: "string" },
        "floor-seconds": { type: "string" },
        "floor-concurrency": { type: "string" },
        pollers: { type: "string" },
        backlog: { type: "string" },
        app: { type: "string" },
        seed: { type: "string" },
        dynamo: { type: "string" },
        "json-file": { type: "string" },
        "profile-dir": { type: "string" },
        "write-figures": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    throw new LoadUsageError("help", `${(error as Error).message}; see npm run bench -- --help`, { cause: error });
  }
  const v = parsed.values;
  const d = BENCH_DEFAULTS;
  const batchSizes = v["batch-sizes"] === undefined ? d.batchSizes : v["batch-sizes"].split(",").map((s) => readInt(s.trim(), "batch-sizes", 0, 1, 10));
  if (batchSizes.length === 0) throw new LoadUsageError("batch-sizes", "give at least one batch size, e.g. 1,10");
  return {
    help: v.help,
    jsonFile: v["json-file"] ?? DEFAULT_BENCH_JSON,
    figuresFile: v["write-figures"],
    options: {
      batchSizes,
      messages: readInt(v.messages, "messages", d.messages, 10, 1_000_000),
      duplicateRatio: readRatio(v.duplicates, "duplicates", d.duplicateRatio, 0.9),
      warmupMessages: readInt(v.warmup, "warmup", d.warmupMessages, 1, 100_000),
      profileMessages: readInt(v.profile, "profile", d.profileMessages, 0, 1_000_000),
      floorSeconds: readInt(v["floor-seconds"], "floor-seconds", d.floorSeconds, 1, 600),
      floorConcurrency: readInt(v["floor-concurrency"], "floor-concurrency", d.floorConcurrency, 1, 256),
      pipeConcurrency: readInt(v.pollers, "pollers", d.pipeConcurrency, 1, 32),
      maxBacklog: readInt(v.backlog, "backlog", d.maxBacklog, 0, 1_000_000),
      app: v.app ?? d.app,
      seed: v.seed ?? d.seed,
      settleTimeoutSeconds: d.settleTimeoutSeconds,
      dynamoPlacement: v.dynamo === undefined ? undefined : readChoice(v.dynamo, "dynamo", DynamoPlacement.InProcess, Object.values(DynamoPlacement)),
      profileDir: v["profile-dir"],
    },
  };
}
