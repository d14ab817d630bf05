import { PipeConfigError } from "./errors";
import { compileEventPattern, matchesEventPattern } from "./event-pattern";
import type { CompiledPattern, PatternOperator } from "./event-pattern";
import { parseBody } from "./parse-body";
import type { FilterCriteria, SqsRecord } from "./types";

/**
 * Operators that EventBridge event buses accept but Pipes does not (AWS "Comparison operators for use in
 * event patterns", column "Pipe support": No). A pipe with such a filter is refused, as AWS refuses it.
 */
const NOT_SUPPORTED_BY_PIPES: readonly PatternOperator[] = [
  "anything-but/prefix",
  "anything-but/suffix",
  "anything-but/equals-ignore-case",
  "anything-but/wildcard",
];

/** Record fields added by the poller; AWS documents that patterns cannot use them, so they are not matched. */
const POLLER_FIELDS = ["awsRegion", "eventSource", "eventSourceARN"] as const;

interface CompiledFilter {
  readonly pattern: CompiledPattern;
  /** How the pattern treats `body`: as a plain string (`"body": [...]`), as JSON (`"body": {...}`), or not at all. */
  readonly bodyFormat: "string" | "json" | "mixed" | "none";
}

/** Decides, per record, whether it passes the pipe's filter criteria. */
export type RecordFilter = (record: SqsRecord) => boolean;

/**
 * Compiles `FilterCriteria`. No criteria, or an empty `Filters` list, lets every record through; otherwise a
 * record passes when it matches at least one filter. Throws `PipeConfigError` naming the filter at fault.
 */
export function compileFilterCriteria(criteria: FilterCriteria | undefined): RecordFilter {
  const filters = (criteria?.Filters ?? []).map((filter, i) => compileFilter(filter?.Pattern, i));
  if (filters.length === 0) return () => true;
  return (record) => filters.some((filter) => matchesFilter(filter, record));
}

function compileFilter(pattern: unknown, index: number): CompiledFilter {
  const where = `filterCriteria.Filters[${index}].Pattern`;
  if (typeof pattern !== "string" || pattern.trim() === "") {
    throw new PipeConfigError(`${where} must be a JSON event pattern string, e.g. '{"body":{"type":["order"]}}'`);
  }
  let compiled: CompiledPattern;
  try {
    compiled = compileEventPattern(pattern);
  } catch (error) {
    throw new PipeConfigError(`${where} is not a valid event pattern: ${(error as Error).message}`, { cause: error });
  }
  const unsupported = NOT_SUPPORTED_BY_PIPES.filter((op) => compiled.operators.has(op));
  if (unsupported.length > 0) {
    throw new PipeConfigError(
      `${where} uses ${unsupported.join(", ")}, which EventBridge Pipes does not support (event buses do). ` +
        'Use plain "anything-but" with values, or filter inside the state machine.',
    );
  }
  return { pattern: compiled, bodyFormat: bodyFormatOf(JSON.parse(pattern) as Record<string, unknown>) };
}

/** Looks at every `body` key at the top level and inside top-level `$or` alternatives. */
function bodyFormatOf(pattern: Record<string, unknown>): CompiledFilter["bodyFormat"] {
  const formats = new Set<"string" | "json">();
  const visit = (level: Record<string, unknown>): void => {
    if ("body" in level) formats.add(Array.isArray(level.body) ? "string" : "json");
    if (Array.isArray(level.$or)) for (const alt of level.$or) if (alt && typeof alt === "object") visit(alt as Record<string, unknown>);
  };
  visit(pattern);
  if (formats.size === 2) return "mixed";
  return formats.size === 1 ? [...formats][0] : "none";
}

/**
 * AWS: a JSON body against a plain-string body pattern, or a plain-string body against a JSON body pattern,
 * drops the message; with no body pattern only the other fields are matched.
 */
function matchesFilter(filter: CompiledFilter, record: SqsRecord): boolean {
  const body = parseBody(record.body);
  if (filter.bodyFormat === "string" && body.json) return false;
  if (filter.bodyFormat === "json" && !body.json) return false;
  const view: Record<string, unknown> = { ...record, body: body.value };
  for (const field of POLLER_FIELDS) delete view[field];
  return matchesEventPattern(filter.pattern, view);
}
