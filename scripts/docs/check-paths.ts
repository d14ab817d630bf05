// `npm run lint:paths`: every path of this repository named in a document or a code comment exists (the rule and its
// exclusions: scripts/docs/paths.ts). Exit 1 with one line per missing path.
import { join } from "node:path";
import { formatMissing, missingPaths } from "./paths";

const root = join(__dirname, "../..");
const started = performance.now();
const problems = missingPaths(root);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (problems.length > 0) {
  process.stderr.write(`${formatMissing(problems, root)}\nlint:paths: ${problems.length} path(s) named but missing (${seconds} s)\n`);
  process.exitCode = 1;
} else process.stdout.write(`lint:paths: every path named in docs and comments exists (${seconds} s)\n`);
