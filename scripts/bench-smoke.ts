// `npm run bench:smoke`: the CI bench smoke. A quick bench (tools/load/bench-options.ts BENCH_QUICK), each batch
// size's median ratio to the storage floor held against the quick figures committed in bench/figures.json: fails
// (exit 1) when one falls more than 15 % below; a low median with a spread above ±5 % is measured once more first.
import "./support/quiet-sdk";
import { parseArgs } from "node:util";
import { COMMITTED_FIGURES_FILE, readCommittedFigures } from "../tools/load/bench-committed";
import { formatBench } from "../tools/load/bench-report";
import { runBench } from "../tools/load/bench-run";
import { formatSmokeCheck, runSmoke } from "../tools/load/bench-smoke";

const HELP = `Usage: npm run bench:smoke [-- --figures <file>]

Runs npm run bench -- --quick for the batch sizes of the committed quick figures and fails (exit 1) when a median
ratio falls more than 15 % below its committed figure; a low median whose rounds spread more than ±5 % is measured
once more (that batch size only) before the verdict. About a minute, two when a rerun is needed.
  --figures <file>  the committed figures (default ${COMMITTED_FIGURES_FILE})`;

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { figures: { type: "string" }, help: { type: "boolean", short: "h", default: false } } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const file = values.figures ?? COMMITTED_FIGURES_FILE;
  const started = Date.now();
  const outcome = await runSmoke(readCommittedFigures(file), file, async (options) => {
    const result = await runBench(options, (line) => process.stderr.write(`${line}\n`));
    console.log(`\n${formatBench(result)}\n`);
    return result;
  });
  for (const check of outcome.checks) console.log(`[bench smoke] ${formatSmokeCheck(check)}`);
  console.log(`[bench smoke] ${outcome.passed ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
  return outcome.passed ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`bench smoke failed: ${error.stack ?? error.message}`);
    process.exit(2);
  },
);
