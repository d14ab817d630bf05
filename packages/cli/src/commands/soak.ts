// `effectively-once soak`: the pipeline under load and faults on the local cloud, checked key by key (docs/guarantees.md).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { loadProfile } from "@effectively-once/local-cloud/stack";
import { REMOTE_HELP } from "../load/remote-args";
import { LoadTool } from "../load/remote-options";
import { onAwsOrLocal } from "./load-target";
import { parseSoakArgs, SOAK_HELP } from "../load/soak-args";
import { buildSoakReport, soakJson } from "../load/soak-report";
import { runSoak } from "@effectively-once/local-cloud/harness";
import type { CommandIo } from "./io";

async function soak(argv: readonly string[], io: CommandIo): Promise<number> {
  const where = await onAwsOrLocal(LoadTool.Soak, argv, io);
  if ("exit" in where) return where.exit;
  const rest = where.rest;
  const cli = parseSoakArgs(rest);
  if (cli.help) {
    io.stdout(`${SOAK_HELP}\n\n${REMOTE_HELP}\n`);
    return 0;
  }
  const o = cli.options;
  // The profile is checked before the cloud boots: a module of the wrong shape stops the run with nothing started.
  loadProfile(o.app, o.messageProfile);
  io.stderr(`soak: ${o.messages} messages, ${o.duplicateRatio * 100}% duplicates, faults ${o.faultProfile}, seed "${o.seed}", batch ${o.batchSize}, ${o.pipeConcurrency} pollers`);
  const result = await runSoak(o, { progress: cli.progress ? process.stderr : undefined, note: io.stderr });
  const report = buildSoakReport(result);
  const json = soakJson(result, report);
  if (cli.jsonFile) {
    mkdirSync(dirname(cli.jsonFile), { recursive: true });
    writeFileSync(cli.jsonFile, `${JSON.stringify(json, null, 2)}\n`);
    io.stderr(`JSON written to ${cli.jsonFile}`);
  }
  io.stdout(cli.json ? `${JSON.stringify(json, null, 2)}\n` : `\n${report.text}\n`);
  return report.ok ? 0 : 1;
}

/** Exit 0 held, 1 an invariant broke, 2 bad flags or a run that could not finish (one line on stderr). */
export async function runSoakCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await soak(argv, io);
  } catch (error) {
    const e = error as Error;
    io.stderr(error instanceof LoadUsageError ? e.message : `soak: ${e.message}`);
    return 2;
  }
}
