// `npm run soak`: the pipeline under load and faults on the local cloud, checked key by key (the guarantees in docs/guarantees.md).
import "../quiet-sdk";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { REMOTE_HELP, splitTarget } from "../load/remote-args";
import { runRemoteCli } from "../load/remote-cli";
import { LoadTarget, LoadTool } from "../load/remote-options";
import { parseSoakArgs, SOAK_HELP } from "../load/soak-args";
import { buildSoakReport, soakJson } from "../load/soak-report";
import { runSoak } from "@effectively-once/local-cloud/harness";

async function main(): Promise<number> {
  const { target, rest } = splitTarget(process.argv.slice(2));
  if (target === LoadTarget.Aws) {
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(REMOTE_HELP);
      return 0;
    }
    return runRemoteCli(LoadTool.Soak, rest, { stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) });
  }
  const cli = parseSoakArgs(rest);
  if (cli.help) {
    console.log(`${SOAK_HELP}\n\n${REMOTE_HELP}`);
    return 0;
  }
  const note = (line: string) => process.stderr.write(`${line}\n`);
  const o = cli.options;
  note(`soak: ${o.messages} messages, ${o.duplicateRatio * 100}% duplicates, faults ${o.faultProfile}, seed "${o.seed}", batch ${o.batchSize}, ${o.pipeConcurrency} pollers`);
  const result = await runSoak(o, { progress: cli.progress ? process.stderr : undefined, note });
  const report = buildSoakReport(result);
  const json = soakJson(result, report);
  if (cli.jsonFile) {
    mkdirSync(dirname(cli.jsonFile), { recursive: true });
    writeFileSync(cli.jsonFile, `${JSON.stringify(json, null, 2)}\n`);
    note(`JSON written to ${cli.jsonFile}`);
  }
  if (cli.json) console.log(JSON.stringify(json, null, 2));
  else console.log(`\n${report.text}`);
  return report.ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof LoadUsageError ? error.message : `soak failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
