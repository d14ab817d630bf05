/**
 * Replays AWS's recorded answers against the local cloud. The recordings are LocalStack's AWS-validated snapshot
 * tests (Apache-2.0, see recordings/NOTICE.md): each replay test sends the recorded test's requests through the
 * real AWS SDK to the local SQS / DynamoDB and compares each answer with the recorded one, after the snapshot's own
 * transformer rules (ids, receipt and task handles, timestamps, ARNs) and its skip paths.
 *
 * Placeholders are compared as patterns, not numbers: `<uuid:1>` / `<uuid:2>` in the recording and two different
 * message ids in the answer match when both name the same values in the same places (renumbered in one walk).
 */
import { readFileSync } from "node:fs";
import path from "node:path";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type RecordingFile = "sqs" | "sqs-move-task" | "dynamodb";

export interface Recording {
  /** The recorded test, e.g. `TestSqsProvider::test_send_empty_message[sqs]`. */
  name: string;
  /** The snapshot file and test it came from (credit). */
  source: string;
  /** When LocalStack last validated it against AWS (null: never recorded a date). */
  validated: string | null;
  recorded: Record<string, Json>;
}

interface RecordingsFile {
  source: { repository: string; commit: string; path: string };
  cases: Record<string, { validated: string | null; recorded: Record<string, Json> }>;
}

const loaded = new Map<RecordingFile, RecordingsFile>();

/** One recorded test out of recordings/<file>.json. */
export function recording(file: RecordingFile, name: string): Recording {
  if (!loaded.has(file)) loaded.set(file, JSON.parse(readFileSync(path.join(__dirname, "recordings", `${file}.json`), "utf8")) as RecordingsFile);
  const recordings = loaded.get(file) as RecordingsFile;
  const found = recordings.cases[name];
  if (!found) throw new Error(`recordings/${file}.json has no case ${name}: add it to recordings/extract.mjs`);
  return { name, source: `${recordings.source.path}::${name} (${recordings.source.repository} @ ${recordings.source.commit.slice(0, 12)})`, ...found };
}

/** Rules a recorded test adds to the common transformers. */
export interface ReplayRules {
  /** LocalStack's `skip_snapshot_verify` paths (`$..Error.Detail`, `$..Results..FailureReason`, `$..message`). */
  skip?: string[];
  /** Literal text → placeholder (LocalStack's `transform.regex`), e.g. a queue name → `<queue-name>`. */
  replace?: Array<[string, string]>;
}

/** Keys whose values are opaque identities (LocalStack's `sqs_api()` key-value transformers). */
const IDENTITY_KEYS = new Map([
  ["ReceiptHandle", "receipt-handle"],
  ["TaskHandle", "task-handle"],
  ["SenderId", "sender-id"],
  ["SequenceNumber", "sequence-number"],
]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOCAL_ARN = /arn:aws:([a-z0-9-]+):us-east-1:000000000000:([A-Za-z0-9_./-]+)/g;
const PLACEHOLDER = /<([a-z-]+):([^>]+)>/g;

/** Python's repr of bytes, as the recordings spell binary values (botocore returns bytes). */
export function pythonBytes(bytes: Uint8Array): string {
  const text = Buffer.from(bytes).toString("latin1");
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code >= 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return `b${quote}${out}${quote}`;
}

/** An SDK answer as botocore returns it: `$metadata` becomes `ResponseMetadata`, bytes their Python repr. */
export function answer(output: object): Json {
  const { $metadata, ...rest } = output as { $metadata?: { httpStatusCode?: number } };
  const body = plain(rest) as Record<string, Json>;
  return $metadata ? { ...body, ResponseMetadata: { HTTPHeaders: {}, HTTPStatusCode: $metadata.httpStatusCode ?? 200 } } : body;
}

function plain(value: unknown): Json {
  if (value instanceof Uint8Array) return pythonBytes(value);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const [key, inner] of Object.entries(value)) if (inner !== undefined) out[key] = plain(inner);
    return out;
  }
  return value as Json;
}

/** SQS error shapes with a modeled `message` member: botocore copies it to the top level when the code names one. */
const SQS_SHAPES_WITH_MESSAGE = new Set([
  "BatchEntryIdsNotDistinct", "BatchRequestTooLong", "EmptyBatchRequest", "InvalidAddress", "InvalidAttributeName",
  "InvalidAttributeValue", "InvalidBatchEntryId", "InvalidMessageContents", "InvalidSecurity", "OverLimit",
  "PurgeQueueInProgress", "QueueDeletedRecently", "QueueDoesNotExist", "QueueNameExists", "ReceiptHandleIsInvalid",
  "RequestThrottled", "ResourceNotFoundException", "TooManyEntriesInBatchRequest", "UnsupportedOperation",
]);

interface SdkError extends Error {
  __type?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string> };
  Item?: unknown;
  CancellationReasons?: unknown;
}

/**
 * A failed call as botocore reports it (`ClientError.response`): on SQS's JSON protocol the code comes from the
 * `x-amzn-query-error` header and the `__type` becomes `QueryErrorCode`.
 */
export async function failure(call: Promise<unknown>): Promise<Json> {
  const error = await rejection(call);
  const typeName = String(error.__type ?? error.name).split("#").pop() as string;
  const header = error.$response?.headers?.["x-amzn-query-error"];
  const [code, type] = header ? header.split(";") : [typeName, undefined];
  const out: Record<string, Json> = {
    Error: { Code: code, Message: error.message, ...(header ? { QueryErrorCode: typeName, Type: type ?? "" } : {}) },
    ResponseMetadata: { HTTPHeaders: {}, HTTPStatusCode: error.$metadata?.httpStatusCode ?? 0 },
  };
  if (header && SQS_SHAPES_WITH_MESSAGE.has(code)) out.message = error.message;
  if (error.Item !== undefined) out.Item = plain(error.Item);
  return out;
}

/** `str(ClientError)` in botocore: what a recording holds when it matched the exception itself. */
export async function failureText(call: Promise<unknown>, operation: string): Promise<string> {
  const error = await rejection(call);
  const header = error.$response?.headers?.["x-amzn-query-error"];
  const code = header ? header.split(";")[0] : String(error.__type ?? error.name).split("#").pop();
  return `An error occurred (${code}) when calling the ${operation} operation: ${error.message}`;
}

async function rejection(call: Promise<unknown>): Promise<SdkError> {
  try {
    await call;
  } catch (error) {
    return error as SdkError;
  }
  throw new Error("the call succeeded; the recording says it fails");
}

/** Compares what the local cloud answered, snapshot by snapshot, with the recording (after its transformers). */
export function expectReplay(rec: Recording, observed: Record<string, unknown>, rules: ReplayRules = {}): void {
  for (const key of Object.keys(observed)) {
    if (!(key in rec.recorded)) throw new Error(`${rec.name}: the recording has no snapshot "${key}"`);
  }
  const keys = Object.keys(rec.recorded).filter((key) => key in observed);
  const actual = canonical(Object.fromEntries(keys.map((key) => [key, transform(plain(observed[key]), rules)])), rules);
  const expected = canonical(Object.fromEntries(keys.map((key) => [key, rec.recorded[key]])), rules);
  expect({ recording: rec.name, snapshots: actual }).toEqual({ recording: rec.name, snapshots: expected });
}

/** The common transformers, applied to an answer (raw values become `<kind:raw>` until renumbered). */
function transform(value: Json, rules: ReplayRules, key?: string): Json {
  if (key !== undefined && /timestamp$/i.test(key)) return "timestamp";
  if (Array.isArray(value)) return value.map((item) => transform(item, rules));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, inner]) => [k, transform(inner, rules, k)]));
  }
  if (typeof value !== "string") return value;
  // LocalStack's snapshots hold a JSON object body parsed (its transformer reads JSON strings).
  if (key === "Body" && value.startsWith("{")) {
    try {
      return transform(JSON.parse(value) as Json, rules);
    } catch {
      // Not JSON: compared as text.
    }
  }
  const identity = key === undefined ? undefined : IDENTITY_KEYS.get(key);
  if (identity) return `<${identity}:${value}>`;
  if (UUID.test(value)) return `<uuid:${value}>`;
  let text = value.replace(LOCAL_ARN, (_all, service: string, resource: string) => `arn:<partition>:${service}:<region>:111111111111:<resource:${resource}>`);
  for (const [literal, placeholder] of rules.replace ?? []) text = text.split(literal).join(placeholder);
  return text;
}

/** Drops the skip paths and renumbers placeholders per kind in one walk over sorted keys. */
function canonical(tree: Record<string, Json>, rules: ReplayRules): Json {
  let pruned: Json = structuredClone(tree);
  for (const skip of rules.skip ?? []) pruned = prune(pruned, skip);
  const numbers = new Map<string, Map<string, number>>();
  const renumber = (text: string): string =>
    text.replace(PLACEHOLDER, (_all, kind: string, id: string) => {
      const ids = numbers.get(kind) ?? new Map<string, number>();
      numbers.set(kind, ids);
      if (!ids.has(id)) ids.set(id, ids.size + 1);
      return `<${kind}:${ids.get(id)}>`;
    });
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === "object") {
      const out: Record<string, Json> = {};
      for (const key of Object.keys(value).sort()) out[key] = walk(value[key]);
      return out;
    }
    return typeof value === "string" ? renumber(value) : value;
  };
  return walk(pruned);
}

/** Removes what a `$..a.b` / `$..a..b` path names (the JSONPath subset LocalStack's skip paths use). */
function prune(tree: Json, skip: string): Json {
  const steps = skip.replace(/^\$/, "").split(/(?=\.\.)/).map((part) => ({ deep: part.startsWith(".."), keys: part.replace(/^\.\.?/, "").split(".") }));
  const visit = (value: Json, index: number): void => {
    if (index >= steps.length || value === null || typeof value !== "object") return;
    const step = steps[index];
    const matchHere = (node: Json): void => {
      let parents: Json[] = [node];
      for (let i = 0; i < step.keys.length; i += 1) {
        const name = step.keys[i];
        const last = i === step.keys.length - 1 && index === steps.length - 1;
        const next: Json[] = [];
        for (const parent of parents) {
          if (!parent || typeof parent !== "object" || Array.isArray(parent) || !(name in parent)) continue;
          if (last) delete (parent as Record<string, Json>)[name];
          else next.push((parent as Record<string, Json>)[name]);
        }
        parents = next;
      }
      for (const parent of parents) visit(parent, index + 1);
    };
    const everywhere = (node: Json): void => {
      matchHere(node);
      if (node && typeof node === "object") for (const child of Object.values(node)) everywhere(child);
    };
    if (step.deep) everywhere(value);
    else matchHere(value);
  };
  visit(tree, 0);
  return tree;
}
