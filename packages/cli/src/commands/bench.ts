// `effectively-once bench`: storage floor, end-to-end throughput, their ratio and a CPU profile, side by side in one run.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { BENCH_HELP, parseBenchArgs } from "../load/bench-args";
import { formatBench } from "../load/bench-report";
import { benchFigures } from "../load/bench-figures";
import { BenchMode, recordCommittedFigures } from "../load/bench-committed";
import { runBench } from "../load/bench-run";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { loadProfile } from "@effectively-once/local-cloud/stack";
import { REMOTE_HELP } from "../load/remote-args";
import { LoadTool } from "../load/remote-options";
import { onAwsOrLocal } from "./load-target";
import type { CommandIo } from "./io";

async function bench(argv: readonly string[], io: CommandIo): Promise<number> {
  const where = await onAwsOrLocal(LoadTool.Bench, argv, io);
  if ("exit" in where) return where.exit;
  const rest = where.rest;
  const cli = parseBenchArgs(rest);
  if (cli.help) {
    io.stdout(`${BENCH_HELP}\n\n${REMOTE_HELP}\n`);
    return 0;
  }
  loadProfile(cli.options.app, cli.options.messageProfile);
  const result = await runBench(cli.options, io.stderr);
  io.stdout(`\n${formatBench(result)}\n`);
  mkdirSync(dirname(cli.jsonFile), { recursive: true });
  writeFileSync(cli.jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  io.stderr(`JSON written to ${cli.jsonFile}`);
  if (cli.figuresFile) {
    mkdirSync(dirname(cli.figuresFile), { recursive: true });
    writeFileSync(cli.figuresFile, `${JSON.stringify(benchFigures(result), null, 2)}\n`);
    io.stderr(`Figures for effectively-once capacity --figures written to ${cli.figuresFile} (local CPU figures of this machine)`);
  }
  if (cli.recordFile) {
    const mode = cli.quick ? BenchMode.Quick : BenchMode.Full;
    recordCommittedFigures(cli.recordFile, mode, result);
    io.stderr(`Medians recorded as the committed ${mode} figures in ${cli.recordFile}`);
  }
  return 0;
}

/** Exit 0 measured, 2 bad flags or a run that could not finish (one line on stderr). */
export async function runBenchCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await bench(argv, io);
  } catch (error) {
    const e = error as Error;
    io.stderr(error instanceof LoadUsageError ? e.message : `bench: ${e.stack ?? e.message}`);
    return 2;
  }
}
