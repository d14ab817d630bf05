import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { readStackFile } from "../cost/stack-config";
import type { DeployedConfig } from "../cost/types";
import { CostModelError } from "../cost/errors";
import { OpsError } from "@effectively-once/ops";
import { loadApp, loadProfile } from "@effectively-once/local-cloud/stack";
import { streamContractOf } from "@effectively-once/local-cloud/stack";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { LoadError } from "@effectively-once/local-cloud/harness";
import { generateStream, streamMix } from "@effectively-once/local-cloud/harness";
import { parseRemoteArgs } from "./remote-args";
import type { LoadTool, RemoteOptions } from "./remote-options";
import { estimateRun, formatPlan, planCalls } from "./remote-plan";
import { buildRemoteReport, remoteJson } from "./remote-report";
import { runRemote } from "./remote-run";
import { connectRemote, resolveRemoteStack } from "./remote-target";

export interface RemoteCliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
  /** Where the endpoint variables are read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** The stack settings the estimate prices; injectable so tests need not synthesize. */
  readonly loadConfig?: (options: RemoteOptions) => DeployedConfig;
  readonly now?: () => number;
}

/** The stack file's settings, else the app's default stack synthesized into a temporary folder (removed after). */
function loadConfig(options: RemoteOptions): DeployedConfig {
  if (options.stackFile) return readStackFile(options.stackFile);
  const outdir = mkdtempSync(join(tmpdir(), "load-cost-synth-"));
  try {
    const { stackFile } = synthStack(stackConfigOf(process.env, loadApp(options.app)), { app: options.app, outdir });
    return { ...readStackFile(stackFile), source: "the app's default stack, synthesized in-process (pass --stack-file for the deployed one's)" };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * `npx effectively-once soak|bench -- --target aws …`: resolves the stack from its outputs file, builds the seeded stream, prints
 * the plan and the cost estimate, and only with `--yes` sends. Returns the exit code: 0 every check held, 1 an
 * invariant broke, 2 bad flags, no `--yes`, an unusable target or a run that could not finish.
 */
export async function runRemoteCli(tool: LoadTool, argv: readonly string[], io: RemoteCliIo): Promise<number> {
  let connection: ReturnType<typeof connectRemote> | undefined;
  try {
    const options = parseRemoteArgs(tool, argv, io.now);
    const stack = resolveRemoteStack(options.target, io.env ?? process.env);
    const messages = await generateStream(loadProfile(options.app), streamContractOf(stack.target.outputs), options);
    const calls = planCalls(options, stack, messages);
    const estimate = estimateRun((io.loadConfig ?? loadConfig)(options), messages, calls);
    const plan = formatPlan(options, stack, messages, calls, estimate);
    if (options.dryRun) {
      io.stdout(`${tool} --target aws --dry-run: nothing is sent; this run would make these calls.\n${plan}\n`);
      return 0;
    }
    if (!options.yes) {
      io.stdout(`${plan}\n`);
      io.stderr(`${tool}: nothing was sent. This would send ${messages.length} messages to ${stack.queueUrl} (estimated $${estimate.totalUsd.toFixed(6)}): add --yes to run it, or --dry-run to list the calls only.`);
      return 2;
    }
    io.stderr(`${tool} --target aws: starting.\n${plan}`);
    connection = connectRemote(stack);
    const result = await runRemote(options, stack, connection, messages, streamMix(options), { note: io.stderr });
    const report = buildRemoteReport(result, estimate);
    const json = remoteJson(result, report, estimate);
    if (options.jsonFile) {
      mkdirSync(dirname(options.jsonFile), { recursive: true });
      writeFileSync(options.jsonFile, `${JSON.stringify(json, null, 2)}\n`);
      io.stderr(`JSON written to ${options.jsonFile}`);
    }
    io.stdout(options.json ? `${JSON.stringify(json, null, 2)}\n` : `\n${report.text}\n`);
    return report.ok ? 0 : 1;
  } catch (error) {
    // Errors of our own are one sentence; anything else (a bug, an SDK surprise) keeps its stack.
    const known = error instanceof LoadError || error instanceof OpsError || error instanceof CostModelError || error instanceof RangeError;
    io.stderr(known ? `${tool}: ${(error as Error).message}` : `${tool} failed: ${(error as Error).stack ?? String(error)}`);
    return 2;
  } finally {
    connection?.clients.destroy();
  }
}
