import { PipeConfigError } from "@effectively-once/contract/pipe-filter";
import { parseBody } from "@effectively-once/contract/pipe-filter";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

/** Values of the `<aws.pipes.*>` reserved variables for one rendering. */
export interface TemplateVariables {
  pipeArn: string;
  pipeName: string;
  sourceArn: string;
  targetArn: string;
  enrichmentArn: string;
  /** ISO 8601 time at which the record reached the input transformer. */
  ingestionTime: string;
}

/** Outcome of rendering one record: the JSON value, or the text when it is not JSON. */
export type RenderResult = { ok: true; value: unknown } | { ok: false; text: string; error: string };

type Segment = string | number;
type Part =
  | { kind: "text"; text: string }
  | { kind: "path"; segments: Segment[]; inString: boolean }
  | { kind: "reserved"; name: ReservedName; inString: boolean };

const RESERVED = [
  "pipe-arn",
  "pipe-name",
  "source-arn",
  "enrichment-arn",
  "target-arn",
  "event",
  "event.json",
  "event.ingestion-time",
] as const;
type ReservedName = (typeof RESERVED)[number];

const PLACEHOLDER = /^<(\$[^<>]*|aws\.pipes\.[A-Za-z0-9.-]+)>/;

/**
 * Compiles a Pipes `InputTemplate`. `<$.path>` takes a value from the record (a JSON body is parsed first, so
 * `<$.body.orderId>` works); `<aws.pipes.*>` are the reserved variables AWS defines. Outside a JSON string a
 * placeholder becomes the value's JSON; inside a string the value's text is inserted unescaped, as EventBridge
 * does. A path that does not exist gives `null` (outside strings) or nothing (inside).
 */
export function compileInputTemplate(template: string): (record: SqsRecord, vars: TemplateVariables) => RenderResult {
  const parts = parseTemplate(template);
  return (record, vars) => {
    const body = parseBody(record.body);
    const data = { ...record, body: body.value };
    let text = "";
    for (const part of parts) {
      if (part.kind === "text") text += part.text;
      else if (part.kind === "path") text += insert(resolve(data, part.segments), part.inString);
      else text += insert(reservedValue(part.name, record, data, vars), part.inString);
    }
    try {
      return { ok: true, value: JSON.parse(text) as unknown };
    } catch (error) {
      return { ok: false, text, error: `the input template did not produce JSON: ${(error as Error).message}` };
    }
  };
}

function parseTemplate(template: string): Part[] {
  const parts: Part[] = [];
  let text = "";
  let inString = false;
  for (let i = 0; i < template.length; i++) {
    const ch = template[i];
    if (ch === "<") {
      const match = PLACEHOLDER.exec(template.slice(i));
      if (match) {
        if (text) parts.push({ kind: "text", text });
        text = "";
        parts.push(parsePlaceholder(match[1], inString));
        i += match[0].length - 1;
        continue;
      }
    }
    if (ch === "\\" && inString) {
      text += ch + (template[i + 1] ?? "");
      i++;
      continue;
    }
    if (ch === '"') inString = !inString;
    text += ch;
  }
  if (text) parts.push({ kind: "text", text });
  return parts;
}

function parsePlaceholder(body: string, inString: boolean): Part {
  if (body.startsWith("aws.pipes.")) {
    const name = body.slice("aws.pipes.".length);
    if (!(RESERVED as readonly string[]).includes(name)) {
      throw new PipeConfigError(
        `inputTemplate: unknown reserved variable <${body}> (known: ${RESERVED.map((r) => `<aws.pipes.${r}>`).join(", ")})`,
      );
    }
    return { kind: "reserved", name: name as ReservedName, inString };
  }
  return { kind: "path", segments: parsePath(body), inString };
}

/** `$`, `$.a.b`, `$.a[0]`, `$.a['key with dots.']`. */
function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  const step = /\.([^.[\]]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\]/y;
  step.lastIndex = 1;
  while (step.lastIndex < path.length) {
    const start = step.lastIndex;
    const m = step.exec(path);
    if (!m || m.index !== start) {
      throw new PipeConfigError(`inputTemplate: cannot read the JSON path <${path}> (use e.g. <$.body.orderId> or <$.attributes.SenderId>)`);
    }
    segments.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4]));
  }
  return segments;
}

function resolve(data: unknown, segments: Segment[]): unknown {
  let current: unknown = data;
  for (const segment of segments) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function reservedValue(name: ReservedName, record: SqsRecord, data: unknown, vars: TemplateVariables): unknown {
  switch (name) {
    case "pipe-arn":
      return vars.pipeArn;
    case "pipe-name":
      return vars.pipeName;
    case "source-arn":
      return vars.sourceArn;
    case "enrichment-arn":
      return vars.enrichmentArn;
    case "target-arn":
      return vars.targetArn;
    case "event.ingestion-time":
      return vars.ingestionTime;
    case "event":
      return record;
    case "event.json":
      return data;
  }
}

function insert(value: unknown, inString: boolean): string {
  if (inString) {
    if (value === undefined) return "";
    if (typeof value === "string") return value;
    return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  }
  return value === undefined ? "null" : JSON.stringify(value);
}
