/**
 * Vendors the output shapes TestState checks mocked Task results against (`mock.fieldValidationMode`), from AWS's own
 * API models as botocore carries them (data/<service>/<date>/service-2.json.gz, Apache-2.0):
 *
 *   npx tsx packages/cli/src/stepfunctions/service-shapes.ts
 *
 * writes packages/local-cloud/src/stepfunctions/test-state/service-shapes.json. Only what the check reads is kept:
 * each shape's type, members, required members, enum, min and max.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

/** botocore's service folder → the operations whose output is vendored (the integrations teams mock most). */
const OPERATIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["dynamodb", ["GetItem", "PutItem", "UpdateItem", "DeleteItem", "Query", "Scan", "BatchGetItem", "BatchWriteItem", "TransactGetItems", "TransactWriteItems"]],
  ["lambda", ["Invoke", "GetFunction"]],
  ["sqs", ["SendMessage"]],
  ["sns", ["Publish"]],
  ["events", ["PutEvents"]],
  ["stepfunctions", ["StartExecution"]],
  ["s3", ["GetObject"]],
  ["kms", ["Encrypt"]],
];
const OUT = resolve(__dirname, "../../../local-cloud/src/stepfunctions/test-state/service-shapes.json");

type RawShape = { type: string; members?: Record<string, { shape: string }>; member?: { shape: string }; value?: { shape: string }; required?: string[]; enum?: string[]; min?: number; max?: number };
type Shape = { type: string; members?: Record<string, string>; member?: string; value?: string; required?: string[]; enum?: string[]; min?: number; max?: number };

function botocore(): { dir: string; version: string } {
  const [dir, version] = execFileSync("python3", ["-c", "import botocore,os;print(os.path.dirname(botocore.__file__));print(botocore.__version__)"], { encoding: "utf8" }).trim().split("\n");
  return { dir, version };
}

function model(dataDir: string, service: string): { apiVersion: string; operations: Record<string, { output?: { shape: string } }>; shapes: Record<string, RawShape> } {
  const dates = readdirSync(join(dataDir, service)).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
  const latest = dates[dates.length - 1];
  const raw = JSON.parse(gunzipSync(readFileSync(join(dataDir, service, latest, "service-2.json.gz"))).toString("utf8"));
  return { apiVersion: latest, operations: raw.operations, shapes: raw.shapes };
}

function main(): void {
  const { dir, version } = botocore();
  const services: Record<string, unknown> = {};
  for (const [service, operations] of OPERATIONS) {
    const m = model(join(dir, "data"), service);
    const shapes = new Map<string, Shape>();
    const visit = (name: string): void => {
      if (shapes.has(name)) return;
      const s = m.shapes[name];
      const kept: Shape = { type: s.type };
      if (s.members) kept.members = Object.fromEntries(Object.entries(s.members).map(([k, v]) => [k, v.shape]));
      if (s.member) kept.member = s.member.shape;
      if (s.value) kept.value = s.value.shape;
      for (const key of ["required", "enum", "min", "max"] as const) if (s[key] !== undefined) (kept as Record<string, unknown>)[key] = s[key];
      shapes.set(name, kept);
      for (const inner of [...Object.values(kept.members ?? {}), kept.member, kept.value]) if (inner) visit(inner);
    };
    const outputs: Record<string, string> = {};
    for (const op of operations) {
      const output = m.operations[op]?.output?.shape;
      if (!m.operations[op]) throw new Error(`botocore ${version} has no ${service} ${op}`);
      if (output) {
        outputs[op] = output;
        visit(output);
      }
    }
    services[service] = { apiVersion: m.apiVersion, outputs, shapes: Object.fromEntries([...shapes].sort(([a], [b]) => a.localeCompare(b))) };
  }
  // One shape per line: reviewable diffs when a model changes.
  const lines = [`{`, `  "source": ${JSON.stringify(`botocore ${version}`)},`, `  "services": {`];
  const entries = Object.entries(services);
  entries.forEach(([service, body], i) => {
    const { apiVersion, outputs, shapes } = body as { apiVersion: string; outputs: object; shapes: Record<string, Shape> };
    lines.push(`    ${JSON.stringify(service)}: {`, `      "apiVersion": ${JSON.stringify(apiVersion)},`, `      "outputs": ${JSON.stringify(outputs)},`, `      "shapes": {`);
    const names = Object.keys(shapes);
    names.forEach((name, j) => lines.push(`        ${JSON.stringify(name)}: ${JSON.stringify(shapes[name])}${j < names.length - 1 ? "," : ""}`));
    lines.push(`      }`, `    }${i < entries.length - 1 ? "," : ""}`);
  });
  lines.push(`  }`, `}`, ``);
  writeFileSync(OUT, lines.join("\n"));
  process.stdout.write(`wrote ${OUT} from botocore ${version}\n`);
}

main();
