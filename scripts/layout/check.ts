// `npm run lint:layout`: the layout checks, exiting 1 on any finding. Import cycles first (fast), then package.json
// entries without a source and exports without a user (builds a TypeScript program over the repository, seconds).
import path from "node:path";
import { buildImportGraph, describeCycles } from "./import-cycles";
import { findUnusedExports, groupByFile } from "./unused-exports";
import { definitionObjectKeyFindings } from "./jsonata-keys";
import { simSettings } from "../../tools/sim/settings";

const root = path.resolve(process.argv[2] ?? ".");
const cycles = describeCycles(buildImportGraph(root));
console.log(`import cycles: ${cycles.length}`);
for (const line of cycles) console.log(`  ${line}`);

// The rendered definition of the default app: no JSONata object keyed by a computed (possibly outside) value.
const keyed = definitionObjectKeyFindings(simSettings().definition);
console.log(`JSONata objects keyed by computed values: ${keyed.length}${keyed.length ? " (group by position or with arrays of pairs)" : ""}`);
for (const line of keyed) console.log(`  ${line}`);

const { unused, testOnly, dangling } = findUnusedExports(root);
const missing = new Map<string, string[]>();
for (const d of dangling) missing.set(d.source, [...(missing.get(d.source) ?? []), `${d.field} (${d.written})`]);
console.log(`package.json entries without a source: ${missing.size}${missing.size ? " (add the file, or fix the path)" : ""}`);
for (const [source, fields] of missing) console.log(`  ${source}: named by ${fields.join(", ")}`);
console.log(`exports without a user: ${unused.length}${unused.length ? " (un-export them, or delete the dead code)" : ""}`);
for (const line of groupByFile(unused)) console.log(line);
console.log(`exports only tests use (allowed): ${testOnly.length}`);
for (const line of groupByFile(testOnly)) console.log(line);

process.exitCode = cycles.length === 0 && keyed.length === 0 && dangling.length === 0 && unused.length === 0 ? 0 : 1;
