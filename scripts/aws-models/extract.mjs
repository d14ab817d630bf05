// `node scripts/aws-models/extract.mjs [--botocore <botocore package folder>]`: writes packages/testing/src/aws-models/<service>.json,
// the parts of AWS's own API models (botocore's data/<service>/<version>/service-2.json.gz, Apache-2.0) that the
// tests hold the construct and the state machine to: each operation's input shape and every shape it reaches, and the
// named shapes whose limits the synth-time rules copy. Documentation is dropped except where a shape's limit lives
// only there (CloudWatch Logs' retention values). Re-run it after a botocore upgrade and review the diff: the
// extract records the botocore version it came from, so a test failing after a regeneration names what AWS changed.
// Without --botocore the folder is asked of `python3 -c "import botocore"`.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
const OUT = join(ROOT, "packages", "testing", "src", "aws-models");

/**
 * Per service: the botocore folder name, the operations whose input shapes are kept (and those whose output shapes are
 * kept too: answers a test shapes as AWS would), named shapes, and shapes whose documentation is kept.
 */
const SERVICES = [
  { file: "dynamodb", service: "dynamodb", operations: ["PutItem", "GetItem", "UpdateItem", "DeleteItem"], shapes: ["TableName"] },
  {
    file: "lambda",
    service: "lambda",
    operations: ["Invoke"],
    shapes: ["FunctionName", "Runtime", "Architecture", "ApplicationLogLevel", "SystemLogLevel", "EnvironmentVariables", "MemorySize", "Timeout", "ReservedConcurrentExecutions", "EphemeralStorageSize"],
  },
  { file: "sqs", service: "sqs", operations: ["SendMessage", "CreateQueue"], shapes: [] },
  { file: "stepfunctions", service: "stepfunctions", operations: ["StartSyncExecution"], shapes: ["Name", "LogLevel"] },
  { file: "pipes", service: "pipes", operations: [], shapes: ["PipeName", "FilterCriteria", "PipeLogConfigurationParameters", "PipeSourceSqsQueueParameters"] },
  { file: "logs", service: "logs", operations: ["PutRetentionPolicy", "PutLogEvents"], shapes: ["LogGroupName"], documented: ["Days"] },
  { file: "iam", service: "iam", operations: [], shapes: ["roleNameType", "policyNameType", "policyDocumentType"] },
  { file: "cloudwatch", service: "cloudwatch", operations: ["DescribeAlarms"], outputs: ["DescribeAlarms"], shapes: ["AlarmName", "ResourceList", "DashboardName"] },
];

function botocoreFolder() {
  const at = process.argv.indexOf("--botocore");
  if (at >= 0) return resolve(process.argv[at + 1]);
  return execFileSync("python3", ["-c", "import botocore, os; print(os.path.dirname(botocore.__file__))"], { encoding: "utf8" }).trim();
}

function botocoreVersion(folder) {
  const init = readFileSync(join(folder, "__init__.py"), "utf8");
  const found = /__version__ = '([^']+)'/.exec(init);
  if (!found) throw new Error(`no __version__ in ${folder}/__init__.py`);
  return found[1];
}

/** The newest API version folder of a service (botocore keeps one per API version; the pipeline uses the current one). */
function modelPath(folder, service) {
  const versions = readdirSync(join(folder, "data", service)).filter((v) => /^\d{4}-\d{2}-\d{2}$/.test(v)).sort();
  const version = versions.at(-1);
  if (!version) throw new Error(`no API version of ${service} under ${folder}/data`);
  return { version, path: join("data", service, version, "service-2.json.gz") };
}

function referenced(shape) {
  if (shape.type === "structure") return Object.values(shape.members ?? {}).map((m) => m.shape);
  if (shape.type === "list") return [shape.member.shape];
  if (shape.type === "map") return [shape.key.shape, shape.value.shape];
  return [];
}

/** A shape without documentation (and members without theirs), unless its limit is written only there. */
function trimmed(shape, keepDocs) {
  const { documentation, ...rest } = shape;
  if (rest.members) rest.members = Object.fromEntries(Object.entries(rest.members).map(([name, m]) => [name, Object.fromEntries(Object.entries(m).filter(([k]) => k !== "documentation"))]));
  return keepDocs ? { ...rest, documentation } : rest;
}

function extract(folder, spec) {
  const { version, path } = modelPath(folder, spec.service);
  const model = JSON.parse(gunzipSync(readFileSync(join(folder, path))).toString("utf8"));
  const documented = new Set(spec.documented ?? []);
  const outputs = spec.outputs ?? [];
  const roots = [...spec.operations.map((op) => model.operations[op].input.shape), ...outputs.map((op) => model.operations[op].output.shape), ...spec.shapes, ...documented];
  const kept = new Map();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = queue.shift();
    if (kept.has(name)) continue;
    const shape = model.shapes[name];
    if (!shape) throw new Error(`${spec.service}: no shape ${name}`);
    kept.set(name, trimmed(shape, documented.has(name)));
    queue.push(...referenced(shape));
  }
  return {
    "//": "Extract of AWS's API model for this service, from botocore (https://github.com/boto/botocore), Copyright Amazon.com, Inc. or its affiliates, Apache-2.0: see NOTICE and README.md beside this file. Generated by scripts/aws-models/extract.mjs; do not edit.",
    source: { botocore: botocoreVersion(folder), path },
    metadata: { apiVersion: model.metadata.apiVersion, protocol: model.metadata.protocol, serviceId: model.metadata.serviceId, apiModelVersion: version },
    operations: Object.fromEntries(spec.operations.map((op) => [op, { input: model.operations[op].input.shape, ...(outputs.includes(op) ? { output: model.operations[op].output.shape } : {}) }])),
    shapes: Object.fromEntries([...kept.entries()].sort(([a], [b]) => a.localeCompare(b))),
  };
}

const folder = botocoreFolder();
for (const spec of SERVICES) {
  const out = join(OUT, `${spec.file}.json`);
  const json = extract(folder, spec);
  writeFileSync(out, `${JSON.stringify(json, null, 1)}\n`);
  console.log(`aws-models: ${spec.file}.json from botocore ${json.source.botocore} ${json.source.path}: ${Object.keys(json.shapes).length} shapes`);
}
