import { DynamoPlacement } from "@effectively-once/local-cloud/harness";
import { parseFlags, readChoice, readInt, readRatio } from "./args";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { BENCH_DEFAULTS, BENCH_QUICK, BenchInvocation, DEFAULT_BENCH_JSON, type BenchOptions } from "./bench-options";
import { COMMITTED_FIGURES_FILE } from "./bench-committed";

export const BENCH_HELP = `Usage: npx effectively-once bench [options]

Measures in one run, side by side, for each pipe batch size (a fresh local cloud each):
  (a) the storage floor: conditional PutItem ops/s on the same dynalite (1 and N in flight), SQS send and
      receive+delete msg/s on the same fauxqs;
  (b) rounds that alternate floor samples (PutItem, N in flight) and pipeline samples (msg/s end to end,
      warm functions, duplicates included), so both see the same machine;
  (c) per round the ratio of its msg/s × measured DynamoDB calls per message to the mean of the floor samples
      before and after it; the median and the spread (the farthest round, ± % of the median) over the rounds;
  (d) where the main thread's time goes (CPU profile of an extra run) and the CPU of the other threads.
Prints a table and writes JSON.

Options:
  --batch-sizes <list>  comma-separated pipe batch sizes (default ${BENCH_DEFAULTS.batchSizes.join(",")})
  --rounds <n>          floor + pipeline rounds per batch size, at least 3 (default ${BENCH_DEFAULTS.rounds})
  --messages <n>        messages per pipeline sample (default ${BENCH_DEFAULTS.messages})
  --quick               the CI smoke's short run: ${BENCH_QUICK.rounds} rounds of ${BENCH_QUICK.messages} messages, ${BENCH_QUICK.floorSeconds} s floor samples,
                        ${BENCH_QUICK.warmupMessages} warm-up messages, no profile (explicit flags still win); about a minute
  --duplicates <r>      share of duplicates (default ${BENCH_DEFAULTS.duplicateRatio})
  --warmup <n>          messages settled before measuring (default ${BENCH_DEFAULTS.warmupMessages})
  --profile <n>         messages of the profiled run; 0 = no profile (default ${BENCH_DEFAULTS.profileMessages})
  --floor-seconds <s>   seconds per floor measurement (default ${BENCH_DEFAULTS.floorSeconds})
  --floor-concurrency <n>  DynamoDB calls in flight for the concurrent floor (default ${BENCH_DEFAULTS.floorConcurrency})
  --pollers <n>         pipe pollers (default ${BENCH_DEFAULTS.pipeConcurrency})
  --backlog <n>         the producer waits while the queue holds this many messages (default ${BENCH_DEFAULTS.maxBacklog})
  --invocation <mode>   per-record | per-batch: the stacks' batchInvocation (default: the construct's default);
                        the table says each case's mode, its function invocations per message and their mean duration
  --app <name|dir>      the app whose stack and profile to run (default $PIPELINE_APP or payments)
  --message-profile <file>  the module whose \`profile\` export (a MessageProfile) writes the bodies (default:
                        the app's profile.ts)
  --seed <s>            seed of the streams (default "${BENCH_DEFAULTS.seed}")
  --dynamo <where>      dynalite placement: in-process | worker (default: the local cloud's)
  --json-file <file>    where to write the JSON (default ${DEFAULT_BENCH_JSON})
  --profile-dir <dir>   also write every thread's raw .cpuprofile there (open in Chrome DevTools)
  --write-figures <file>  also write the per-batch figures npx effectively-once capacity --figures reads (docs/capacity.md)
  --record              store this run's medians as the committed figures of its mode (full or quick) in
                        ${COMMITTED_FIGURES_FILE}, the published figures (the CI smoke measures its base instead)
  --record-file <file>  the same, into another file
  -h, --help            this text`;

export interface BenchCli {
  readonly help: boolean;
  readonly options: BenchOptions;
  readonly jsonFile: string;
  /** Where to write the figures for `npx effectively-once capacity --figures`; undefined = not written. */
  readonly figuresFile?: string;
  /** The short mode of the CI smoke. */
  readonly quick: boolean;
  /** Where to record this run's medians as the committed figures; undefined = not recorded. */
  readonly recordFile?: string;
}

export function parseBenchArgs(argv: readonly string[]): BenchCli {
  const parsed = parseFlags(
    argv,
    {
      "batch-sizes": { type: "string" },
      rounds: { type: "string" },
      messages: { type: "string" },
      quick: { type: "boolean", default: false },
      record: { type: "boolean", default: false },
      "record-file": { type: "string" },
      duplicates: { type: "string" },
      warmup: { type: "string" },
      profile: { type: "string" },
      "floor-seconds": { type: "string" },
      "floor-concurrency": { type: "string" },
      pollers: { type: "string" },
      backlog: { type: "string" },
      app: { type: "string" },
      invocation: { type: "string" },
      "message-profile": { type: "string" },
      seed: { type: "string" },
      dynamo: { type: "string" },
      "json-file": { type: "string" },
      "profile-dir": { type: "string" },
      "write-figures": { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    "npx effectively-once bench --help",
  );
  const v = parsed.values;
  const d: BenchOptions = v.quick ? { ...BENCH_DEFAULTS, ...BENCH_QUICK } : BENCH_DEFAULTS;
  const batchSizes = v["batch-sizes"] === undefined ? d.batchSizes : v["batch-sizes"].split(",").map((s) => readInt(s.trim(), "batch-sizes", 0, 1, 10));
  if (batchSizes.length === 0) throw new LoadUsageError("batch-sizes", "give at least one batch size, e.g. 1,10");
  return {
    help: v.help,
    jsonFile: v["json-file"] ?? DEFAULT_BENCH_JSON,
    figuresFile: v["write-figures"],
    quick: v.quick,
    recordFile: v["record-file"] ?? (v.record ? COMMITTED_FIGURES_FILE : undefined),
    options: {
      batchSizes,
      rounds: readInt(v.rounds, "rounds", d.rounds, 3, 100),
      messages: readInt(v.messages, "messages", d.messages, 10, 1_000_000),
      duplicateRatio: readRatio(v.duplicates, "duplicates", d.duplicateRatio, 0.9),
      warmupMessages: readInt(v.warmup, "warmup", d.warmupMessages, 1, 100_000),
      profileMessages: readInt(v.profile, "profile", d.profileMessages, 0, 1_000_000),
      floorSeconds: readInt(v["floor-seconds"], "floor-seconds", d.floorSeconds, 1, 600),
      floorConcurrency: readInt(v["floor-concurrency"], "floor-concurrency", d.floorConcurrency, 1, 256),
      pipeConcurrency: readInt(v.pollers, "pollers", d.pipeConcurrency, 1, 32),
      maxBacklog: readInt(v.backlog, "backlog", d.maxBacklog, 0, 1_000_000),
      app: v.app ?? d.app,
      messageProfile: v["message-profile"],
      seed: v.seed ?? d.seed,
      settleTimeoutSeconds: d.settleTimeoutSeconds,
      dynamoPlacement: v.dynamo === undefined ? undefined : readChoice(v.dynamo, "dynamo", DynamoPlacement.InProcess, Object.values(DynamoPlacement)),
      profileDir: v["profile-dir"],
      invocation: v.invocation === undefined ? undefined : readChoice(v.invocation, "invocation", BenchInvocation.PerBatch, Object.values(BenchInvocation)),
    },
  };
}
