// `npm run bench:smoke`: the CI bench smoke, an A/B. The base commit (bench/base-commit, or --base) and this checkout
// each run `npx effectively-once bench --quick` in turn, twice (base, change, base, change), on the same machine; each batch
// size's pooled median throughput (msg/s per round) must be at most 15 % below the base's (a low median with a spread
// above ±5 % gets one more pair first). The figures committed in bench/figures.json are documentation, not the gate.
import { parseArgs } from "node:util";
import { BASE_COMMIT_FILE, benchArm, prepareBase, resolveBase } from "../load/bench-base";
import { BENCH_DEFAULTS, BenchInvocation } from "../load/bench-options";
import { formatSmokeCheck, runSmoke } from "../load/bench-smoke";

const HELP = `Usage: npm run bench:smoke [-- --base <commit>] [--batch-sizes <list>] [--invocation <mode>]

Holds this checkout to its base commit, measured alternately in one run: the base (a detached worktree) and this
checkout each run npx effectively-once bench --quick, base then change, twice. Fails (exit 1) when a batch size's median
throughput (msg/s per round) is more than 15 % below the base's; a low median whose rounds spread more than ±5 % gets one
more pair before the verdict. About four minutes, six with the extra pair.
  --base <commit>       the commit to hold the change to (default: the one in ${BASE_COMMIT_FILE}, else HEAD's parent)
  --batch-sizes <list>  comma-separated (default ${BENCH_DEFAULTS.batchSizes.join(",")})
  --invocation <mode>   per-record | per-batch: the change's stacks invoke the function once per record or once per
                        batch (default: the construct's default); the base runs its own default, so the change in that
                        mode is held to the base as it was
Exit codes: 0 passed, 1 slower than the base, 2 could not measure.`;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { base: { type: "string" }, "batch-sizes": { type: "string" }, invocation: { type: "string" }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const batchSizes = values["batch-sizes"] ? values["batch-sizes"].split(",").map(Number) : BENCH_DEFAULTS.batchSizes;
  if (batchSizes.some((b) => !Number.isInteger(b) || b < 1 || b > 10)) {
    console.error(`--batch-sizes ${values["batch-sizes"]}: give whole numbers from 1 to 10, e.g. 1,10`);
    return 2;
  }
  const modes: readonly string[] = Object.values(BenchInvocation);
  if (values.invocation !== undefined && !modes.includes(values.invocation)) {
    console.error(`--invocation ${values.invocation}: give ${modes.join(" or ")}`);
    return 2;
  }
  const root = process.cwd();
  const started = Date.now();
  const { rev, note } = resolveBase(root, values.base);
  console.log(`[bench smoke] ${note}`);
  const base = prepareBase(root, rev, log);
  try {
    const outcome = await runSmoke(benchArm(base.dir, "base", log), benchArm(root, "change", log, values.invocation === undefined ? [] : ["--invocation", values.invocation]), batchSizes);
    for (const check of outcome.checks) console.log(`[bench smoke] ${formatSmokeCheck(check)}`);
    console.log(`[bench smoke] ${outcome.passed ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`);
    return outcome.passed ? 0 : 1;
  } finally {
    base.dispose();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`bench smoke could not measure: ${error.message}`);
    process.exit(2);
  },
);
