import type { ParseArgsConfig } from "node:util";
import { parseFlags, readInt, readMixShares } from "./args";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { LoadTarget, LoadTool, REMOTE_DEFAULTS, REMOTE_MIX, type RemoteOptions } from "./remote-options";

export const REMOTE_HELP = `With --target aws (docs/load-on-aws.md), the same seeded stream and checks run against a DEPLOYED stack:
  --target aws            address a deployed stack by its outputs file (default: local, the tool's own local cloud)
  --outputs-file <file>   the stack's outputs: cdktf deploy --outputs-file, or terraform output -json (required)
  --stack <name>          the stack in the outputs file, when it holds several
  --region <region>       replaces the stack's region output
  --sqs-endpoint <url>    explicit endpoints; else AWS_ENDPOINT_URL_SQS / AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL,
  --dynamodb-endpoint <url>  else the AWS default for the region (credentials: the SDK's default chain)
  --stack-file <file>     the synthesized cdk.tf.json of the deployed stack, for the cost estimate's settings
                          (default: the app's default stack, synthesized in-process)
  --messages <n>          messages to send (default ${REMOTE_DEFAULTS.messages})
  --max-messages <n>      the cap: more --messages than this are refused (default ${REMOTE_DEFAULTS.maxMessages})
  --rate <n>              messages per second, 1 or more (default ${REMOTE_DEFAULTS.rate})
  --backlog <n>           the producer waits while the queue holds this many messages (default ${REMOTE_DEFAULTS.maxBacklog})
  --run-id <id>           part of every key (default: the seed and the start time, so runs never share keys)
  --settle-timeout <s>    stop waiting this long after the last send (default ${REMOTE_DEFAULTS.settleTimeoutSeconds})
  --quiet-seconds <s>     the queue must read empty this long before checking (default ${REMOTE_DEFAULTS.quietSeconds}: AWS's
                          approximate counts lag)
  --dry-run               print every AWS call, resource and count it would make, and the cost; send nothing
  --yes                   send for real; without it (and without --dry-run) the plan is printed and the tool exits 2
  --json, --json-file <f> the result as JSON on stdout / in a file
Refused with --target aws: fault injection (--faults) and the local cloud's own settings (--batch-size, --pollers, ...).`;

/** Flags of the local tool that cannot apply to a deployed stack, and why (the error names the flag). */
const LOCAL_ONLY: Readonly<Record<LoadTool, readonly string[]>> = {
  soak: ["batch-size", "pollers", "function-envs", "retry-after", "dynamo"],
  bench: ["batch-sizes", "rounds", "record-file", "warmup", "profile", "floor-seconds", "floor-concurrency", "pollers", "dynamo", "profile-dir", "write-figures"],
};

/** `--target` and the rest of the command line; `--target local` (or none) leaves the local tool's flags as they were. */
export function splitTarget(argv: readonly string[]): { readonly target: LoadTarget; readonly rest: string[] } {
  const rest: string[] = [];
  let target: string = LoadTarget.Local;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--target") target = argv[++i] ?? "";
    else if (arg.startsWith("--target=")) target = arg.slice("--target=".length);
    else rest.push(arg);
  }
  if (target !== LoadTarget.Local && target !== LoadTarget.Aws) throw new LoadUsageError("target", `must be local or aws, got "${target}"`);
  return { target, rest: target === LoadTarget.Aws ? [...argv] : rest };
}

const text = { type: "string" } as const;
const flag = { type: "boolean", default: false } as const;

/** Parses `npm run <tool> -- --target aws …`; a bad, missing or local-only flag throws `LoadUsageError` naming it. */
export function parseRemoteArgs(tool: LoadTool, argv: readonly string[], now: () => number = Date.now): RemoteOptions {
  type Options = NonNullable<ParseArgsConfig["options"]>;
  const localOnly: Options = Object.fromEntries(LOCAL_ONLY[tool].map((name) => [name, text]));
  const soakOnly: Options = tool === LoadTool.Soak ? { invalid: text, conflicts: text, rejected: text, faults: text, "no-progress": flag } : {};
  const parsed = parseFlags(
    argv,
    {
      ...localOnly,
      ...soakOnly,
      target: text,
      "outputs-file": text,
      stack: text,
      region: text,
      "sqs-endpoint": text,
      "dynamodb-endpoint": text,
      "stack-file": text,
      messages: text,
      "max-messages": text,
      duplicates: text,
      app: text,
      seed: text,
      "run-id": text,
      rate: text,
      backlog: text,
      "settle-timeout": text,
      "quiet-seconds": text,
      "dry-run": flag,
      yes: flag,
      json: flag,
      "json-file": text,
    },
    `npm run ${tool} -- --help`,
  );
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const str = (name: string) => (typeof v[name] === "string" ? (v[name] as string) : undefined);
  if (str("faults") !== undefined && str("faults") !== "none") {
    throw new LoadUsageError("faults", `fault injection needs the local cloud (it wraps the emulators) and is refused with --target aws: a deployed stack is never faulted by this tool; leave --faults out`);
  }
  for (const name of LOCAL_ONLY[tool]) {
    if (v[name] !== undefined) throw new LoadUsageError(name, `is a setting of the local cloud and is refused with --target aws: the deployed stack runs with its own settings (change them in the stack and deploy)`);
  }
  const outputsFile = str("outputs-file");
  if (outputsFile === undefined) throw new LoadUsageError("outputs-file", "is required with --target aws: the deployed stack's outputs (cdktf deploy --outputs-file, or terraform output -json)");
  const d = REMOTE_DEFAULTS;
  const mix = REMOTE_MIX[tool];
  const maxMessages = readInt(str("max-messages"), "max-messages", d.maxMessages, 1, 10_000_000);
  const messages = readInt(str("messages"), "messages", Math.min(d.messages, maxMessages), tool === LoadTool.Bench ? 10 : 1, 10_000_000);
  if (messages > maxMessages) throw new LoadUsageError("messages", `${messages} is above --max-messages ${maxMessages}: raise --max-messages to send that many to a deployed stack`);
  if (str("rate") === "0") throw new LoadUsageError("rate", "0 (as fast as possible) is refused with --target aws: give the messages per second the deployed stack may take");
  const seed = str("seed") ?? mix.seed;
  const options: RemoteOptions = {
    tool,
    target: { outputsFile, stack: str("stack"), region: str("region"), sqsEndpoint: str("sqs-endpoint"), dynamodbEndpoint: str("dynamodb-endpoint") },
    stackFile: str("stack-file"),
    messages,
    maxMessages,
    ...readMixShares({ duplicates: str("duplicates"), invalid: str("invalid"), conflicts: str("conflicts"), rejected: str("rejected") }, mix),
    app: str("app"),
    seed,
    runId: str("run-id") ?? `${tool}-${seed}-${now().toString(36)}`,
    rate: readInt(str("rate"), "rate", d.rate, 1, 100_000),
    maxBacklog: readInt(str("backlog"), "backlog", d.maxBacklog, 0, 1_000_000),
    settleTimeoutSeconds: readInt(str("settle-timeout"), "settle-timeout", d.settleTimeoutSeconds, 1, 86_400),
    quietSeconds: readInt(str("quiet-seconds"), "quiet-seconds", d.quietSeconds, 0, 3600),
    pollSeconds: d.pollSeconds,
    checkRounds: d.checkRounds,
    yes: v.yes === true,
    dryRun: v["dry-run"] === true,
    json: v.json === true,
    jsonFile: str("json-file"),
  };
  return options;
}
