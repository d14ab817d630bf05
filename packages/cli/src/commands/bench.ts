// `npm run bench`: storage floor, end-to-end throughput, their ratio and a CPU profile, side by side in one run.
import "../quiet-sdk";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { BENCH_HELP, parseBenchArgs } from "../load/bench-args";
import { formatBench } from "../load/bench-report";
import { benchFigures } from "../load/bench-figures";
import { BenchMode, recordCommittedFigures } from "../load/bench-committed";
import { runBench } from "../load/bench-run";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { REMOTE_HELP, splitTarget } from "../load/remote-args";
import { runRemoteCli } from "../load/remote-cli";
import { LoadTarget, LoadTool } from "../load/remote-options";

async function main(): Promise<number> {
  const { target, rest } = splitTarget(process.argv.slice(2));
  if (target === LoadTarget.Aws) {
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(REMOTE_HELP);
      return 0;
    }
    return runRemoteCli(LoadTool.Bench, rest, { stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) });
  }
  const cli = parseBenchArgs(rest);
  if (cli.help) {
    console.log(`${BENCH_HELP}\n\n${REMOTE_HELP}`);
    return 0;
  }
  const result = await runBench(cli.options, (line) => process.stderr.write(`${line}\n`));
  console.log(`\n${formatBench(result)}`);
  mkdirSync(dirname(cli.jsonFile), { recursive: true });
  writeFileSync(cli.jsonFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nJSON written to ${cli.jsonFile}`);
  if (cli.figuresFile) {
    mkdirSync(dirname(cli.figuresFile), { recursive: true });
    writeFileSync(cli.figuresFile, `${JSON.stringify(benchFigures(result), null, 2)}\n`);
    console.log(`Figures for npm run capacity:plan -- --figures written to ${cli.figuresFile} (local CPU figures of this machine)`);
  }
  if (cli.recordFile) {
    const mode = cli.quick ? BenchMode.Quick : BenchMode.Full;
    recordCommittedFigures(cli.recordFile, mode, result);
    console.log(`Medians recorded as the committed ${mode} figures in ${cli.recordFile}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error instanceof LoadUsageError ? error.message : `bench failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
