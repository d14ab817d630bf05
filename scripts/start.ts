// `npm start`: synthesizes the stack, runs it on the local cloud, publishes a sample stream and reports.
// `npm start -- --serve`: keeps the local cloud running for your own producers.
import "./support/quiet-sdk";
import { parseArgs } from "node:util";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { watchInterrupts } from "@effectively-once/local-cloud";
import { runDemo } from "@effectively-once/local-cloud";
import { serve } from "@effectively-once/local-cloud";
import { APP_ENV, exampleNames, loadApp, loadProfile } from "@effectively-once/local-cloud/stack";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";

const help = () => `Usage: npm start [-- options]

Runs a synthesized pipeline (the payments example by default) on the local cloud (no AWS account, no Docker).

Without --serve: publishes a sample stream (unique charges, exact and concurrent duplicates, a payload
conflict, invalid messages, a message the function rejects), shows live progress, prints a summary that checks
"0 lost, 0 double-applied" and the dead-letter queue, and exits 0 when every check holds (1 otherwise).

Options:
  --app <name|dir>      the app: an example (${exampleNames().join(", ")}) or a folder holding stack.ts and
                        profile.ts (default: ${APP_ENV} or payments)
  --serve               keep running; print the endpoints and queue URL for your own producers (Ctrl-C stops)
  --orders <n>          unique orders in the sample stream (default 40)
  --seed <n>            seed of the sample stream (default 1)
  --retry-after <s>     seconds before a retried message reappears (default 2; AWS waits the queue's visibility
                        timeout, 540 s by default: a local shortcut so a demo does not stall)
  --stack-file <file>   run this synthesized cdk.tf.json instead of synthesizing the app's stack
  --state-file <file>   where --serve writes endpoints and names (default .local-cloud/state.json)
  --sync-express-concurrency <n>
                        enforce AWS's limit on synchronous Express executions in flight at n (default: off):
                        starts beyond it fail with ThrottlingException and the pipe retries them
  --logs                show the function's log lines
  -h, --help            this text

Environment: ${APP_ENV} (the app), PIPELINE_STACK, PIPELINE_REGION, PIPELINE_NAME_PREFIX configure the synthesized stack.`;

function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number, got "${value}"`);
  return n;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      app: { type: "string" },
      serve: { type: "boolean", default: false },
      orders: { type: "string" },
      seed: { type: "string" },
      "retry-after": { type: "string" },
      "stack-file": { type: "string" },
      "state-file": { type: "string" },
      "sync-express-concurrency": { type: "string" },
      logs: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(help());
    return 0;
  }
  const orders = positiveInt(values.orders, "orders", 40);
  const seed = positiveInt(values.seed, "seed", 1);
  const retryAfter = positiveInt(values["retry-after"], "retry-after", 2);
  const syncLimit = values["sync-express-concurrency"] === undefined ? undefined : positiveInt(values["sync-express-concurrency"], "sync-express-concurrency", 0);
  if (syncLimit === 0) throw new Error("--sync-express-concurrency must be at least 1 (leave it out for no limit)");
  if (orders < 5) throw new Error("--orders must be at least 5 (the stream needs room for its duplicates and conflict)");

  // From here on Ctrl-C means "stop cleanly", also while the stack synthesizes or the cloud boots.
  const interrupts = watchInterrupts((line) => console.error(line));
  const started = Date.now();
  const appName = values.app ?? process.env[APP_ENV] ?? undefined;
  // Loaded before the cloud boots, so a wrong --app fails in a second, naming the choices.
  const profile = values.serve ? undefined : loadProfile(appName);
  let stackFile = values["stack-file"];
  if (!stackFile) {
    const app = loadApp(appName);
    const config = stackConfigOf(process.env, app);
    stackFile = synthStack(config, { app }).stackFile;
    console.log(`synthesized stack '${config.stackName}' → ${stackFile} (${Date.now() - started} ms)`);
  }
  const cloud: LocalCloud = await startLocalCloud({
    stackFile,
    retryVisibilityTimeoutSeconds: retryAfter,
    functionLogs: values.logs ? "inherit" : "silent",
    ...(syncLimit === undefined ? {} : { limits: { syncExpressConcurrency: syncLimit } }),
  });
  console.log(`local cloud up in ${Date.now() - started} ms: SQS ${cloud.endpoints.sqs}, DynamoDB ${cloud.endpoints.dynamodb}`);
  if (cloud.provisioned.notEmulated) console.warn(`warning: ${cloud.provisioned.notEmulated}`);

  if (values.serve) return serve(cloud, { stackFile, stateFile: values["state-file"], interrupted: interrupts.signalled });
  try {
    if (interrupts.received()) return 130;
    const demo = runDemo(cloud, { profile: profile!, orders, seed, retryAfterSeconds: retryAfter, startedAt: started }).then((ok) => (ok ? 0 : 1));
    return await Promise.race([demo, interrupts.signalled.then(() => 130)]);
  } finally {
    if (interrupts.received()) console.error("\ninterrupted: stopping the local cloud…");
    await cloud.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`npm start failed: ${error.message}`);
    process.exit(1);
  },
);
