// `npm run lint:layout`: the layout checks, exiting 1 on any finding. Package boundaries and import cycles first (fast),
// then package.json entries without a source and exports without a user (builds a TypeScript program, seconds).
import path from "node:path";
import { findBoundaryViolations } from "./boundaries";
import { buildImportGraph, describeCycles } from "./import-cycles";
import { findUnusedExports, groupByFile } from "./unused-exports";
import { definitionObjectKeyFindings } from "./jsonata-keys";
import { simSettings } from "../../tools/sim/src/settings";

const root = path.resolve(process.argv[2] ?? ".");
const crossings = findBoundaryViolations(root);
console.log(`imports across package walls by path or through a door: ${crossings.length}`);
for (const c of crossings) console.log(`  ${c.file}: "${c.specifier}" ${c.why}`);
const cycles = describeCycles(buildImportGraph(root));
console.log(`import cycles: ${cycles.length}`);
for (const line of cycles) console.log(`  ${line}`);

// The rendered definition of the default app: no JSONata object keyed by a computed (possibly outside) value.
const keyed = definitionObjectKeyFindings(simSettings().definition);
console.log(`JSONata objects keyed by computed values: ${keyed.length}${keyed.length ? " (group by position or with arrays of pairs)" : ""}`);
for (const line of keyed) console.log(`  ${line}`);

const { unused, testOnly, reExportedForTests, dangling } = findUnusedExports(root);
const missing = new Map<string, string[]>();
for (const d of dangling) missing.set(d.source, [...(missing.get(d.source) ?? []), `${d.field} (${d.written})`]);
console.log(`package.json entries without a source: ${missing.size}${missing.size ? " (add the file, or fix the path)" : ""}`);
for (const [source, fields] of missing) console.log(`  ${source}: named by ${fields.join(", ")}`);
console.log(`exports without a user: ${unused.length}${unused.length ? " (un-export them, or delete the dead code)" : ""}`);
for (const line of groupByFile(unused)) console.log(line);
console.log(`re-exports only tests use: ${reExportedForTests.length}${reExportedForTests.length ? " (let the tests import the file that declares them)" : ""}`);
for (const line of groupByFile(reExportedForTests)) console.log(line);
console.log(`exports only tests use (allowed): ${testOnly.length}`);
for (const line of groupByFile(testOnly)) console.log(line);

process.exitCode = crossings.length === 0 && cycles.length === 0 && keyed.length === 0 && dangling.length === 0 && unused.length === 0 && reExportedForTests.length === 0 ? 0 : 1;
