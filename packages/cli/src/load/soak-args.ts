import { DynamoPlacement } from "@effectively-once/local-cloud/harness";
import { parseFlags, readChoice, readInt, readMixShares } from "./args";
import { FaultProfile } from "@effectively-once/local-cloud/harness";
import { SOAK_DEFAULTS, type SoakOptions } from "@effectively-once/local-cloud/harness";

export const SOAK_HELP = `Usage: npx effectively-once soak [options]

Drives a pipeline (the payments example by default) on the local cloud with a seeded stream (duplicates, invalid messages, payload
conflicts, messages the function rejects) and a seeded fault plan (Lambda failures, crashes and hangs after the
side effect, DynamoDB throttles and 500s, early visibility expiry), waits until every message has a fate, then
checks the pipeline's guarantees (docs/guarantees.md) over every key. Prints a table; exits 1 when an
invariant broke (lost, double-applied, ledger without TTL, wrong DLQ reason), 2 on bad flags or a run that could
not finish. Figures and the fault profile: docs/performance.md.

Options:
  --messages <n>        messages to publish (default ${SOAK_DEFAULTS.messages})
  --duplicates <r>      share of duplicates, e.g. 0.3 or 30% (default ${SOAK_DEFAULTS.duplicateRatio})
  --invalid <r>         share of invalid bodies (default ${SOAK_DEFAULTS.invalidRatio})
  --conflicts <r>       share of payload conflicts (default ${SOAK_DEFAULTS.conflictRatio})
  --rejected <r>        share of messages the function rejects (default ${SOAK_DEFAULTS.rejectedRatio})
  --app <name|dir>      the app whose stack and profile to run (default $PIPELINE_APP or payments): a folder whose
                        stack.ts exports \`app\` (a PipelineApp)
  --message-profile <file>  the module whose \`profile\` export (a MessageProfile) writes the bodies (default:
                        the app's profile.ts)
  --seed <s>            seed of the stream and the faults (default "${SOAK_DEFAULTS.seed}")
  --faults <profile>    none | realistic | harsh (default ${SOAK_DEFAULTS.faultProfile})
  --batch-size <n>      pipe batch size, 1-10 (default ${SOAK_DEFAULTS.batchSize})
  --pollers <n>         pipe pollers, i.e. batches in flight (default ${SOAK_DEFAULTS.pipeConcurrency})
  --function-envs <n>   Lambda execution environments for the function (default ${SOAK_DEFAULTS.functionEnvironments}: hangs
                        and crashes hold or replace them)
  --rate <n>            publish rate in msg/s; 0 = as fast as the backlog allows (default ${SOAK_DEFAULTS.rate})
  --backlog <n>         the producer waits while the queue holds this many messages (default ${SOAK_DEFAULTS.maxBacklog})
  --retry-after <s>     seconds before a retried message reappears (default ${SOAK_DEFAULTS.retryAfterSeconds}; a local
                        shortcut for the queue's visibility timeout)
  --settle-timeout <s>  give up waiting for the pipeline this long after the last send (default ${SOAK_DEFAULTS.settleTimeoutSeconds})
  --dynamo <where>      dynalite placement: in-process | worker (default: the local cloud's)
  --json                print the result as JSON on stdout instead of the table
  --json-file <file>    also write the JSON result to this file
  --no-progress         no progress bar on stderr
  -h, --help            this text`;

export interface SoakCli {
  readonly help: boolean;
  readonly options: SoakOptions;
  readonly json: boolean;
  readonly jsonFile?: string;
  readonly progress: boolean;
}

/** Parses the soak's command line; a bad flag throws `LoadUsageError` naming it. */
export function parseSoakArgs(argv: readonly string[]): SoakCli {
  const parsed = parseFlags(
    argv,
    {
      messages: { type: "string" },
      duplicates: { type: "string" },
      invalid: { type: "string" },
      conflicts: { type: "string" },
      rejected: { type: "string" },
      app: { type: "string" },
      "message-profile": { type: "string" },
      seed: { type: "string" },
      faults: { type: "string" },
      "batch-size": { type: "string" },
      pollers: { type: "string" },
      "function-envs": { type: "string" },
      rate: { type: "string" },
      backlog: { type: "string" },
      "retry-after": { type: "string" },
      "settle-timeout": { type: "string" },
      dynamo: { type: "string" },
      json: { type: "boolean", default: false },
      "json-file": { type: "string" },
      "no-progress": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
    "npx effectively-once soak --help",
  );
  const v = parsed.values;
  const d = SOAK_DEFAULTS;
  const options: SoakOptions = {
    messages: readInt(v.messages, "messages", d.messages, 1, 1_000_000),
    ...readMixShares(v, d),
    app: v.app ?? d.app,
    messageProfile: v["message-profile"],
    seed: v.seed ?? d.seed,
    faultProfile: readChoice(v.faults, "faults", d.faultProfile, Object.values(FaultProfile)),
    batchSize: readInt(v["batch-size"], "batch-size", d.batchSize, 1, 10),
    pipeConcurrency: readInt(v.pollers, "pollers", d.pipeConcurrency, 1, 32),
    functionEnvironments: readInt(v["function-envs"], "function-envs", d.functionEnvironments, 1, 64),
    rate: readInt(v.rate, "rate", d.rate, 0, 100_000),
    maxBacklog: readInt(v.backlog, "backlog", d.maxBacklog, 0, 1_000_000),
    retryAfterSeconds: readInt(v["retry-after"], "retry-after", d.retryAfterSeconds, 0, 3600),
    settleTimeoutSeconds: readInt(v["settle-timeout"], "settle-timeout", d.settleTimeoutSeconds, 1, 86_400),
    dynamoPlacement: v.dynamo === undefined ? undefined : readChoice(v.dynamo, "dynamo", DynamoPlacement.InProcess, Object.values(DynamoPlacement)),
  };
  return { help: v.help, options, json: v.json, jsonFile: v["json-file"], progress: !v["no-progress"] };
}
