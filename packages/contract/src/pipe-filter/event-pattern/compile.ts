import { EventPatternError } from "../errors";
import { compileMatcher } from "./compile-matcher";
import type { CompiledPattern, FieldRule, PatternNode, PatternOperator } from "./types";

/**
 * Validates and compiles an EventBridge event pattern (a JSON string or an already parsed object).
 *
 * Structure, as EventBridge defines it: an object whose keys are event fields; each value is either a nested
 * object or a non-empty array of matchers (any of which may match), and the key `$or` takes a list of
 * alternative sub-patterns. All fields of a level must match (AND). A key given twice in the JSON text keeps its
 * last value, as AWS documents.
 */
export function compileEventPattern(pattern: string | object): CompiledPattern {
  let parsed: unknown = pattern;
  if (typeof pattern === "string") {
    try {
      parsed = JSON.parse(pattern);
    } catch (error) {
      throw new EventPatternError(`Event pattern is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  if (!isPlainObject(parsed)) throw new EventPatternError("Event pattern must be a JSON object");
  const operators = new Set<PatternOperator>();
  const topLevelFields = new Set<string>();
  const root = compileNode(parsed, "", "$", operators, topLevelFields);
  return { root, operators, topLevelFields };
}

function compileNode(
  object: Record<string, unknown>,
  prefix: string,
  where: string,
  operators: Set<PatternOperator>,
  topLevelFields: Set<string>,
): PatternNode {
  const fields: FieldRule[] = [];
  const orGroups: PatternNode[][] = [];
  // Nested objects flatten into this level (a.b.c), so one node holds every leaf rule below it.
  const collect = (obj: Record<string, unknown>, path: string, at: string): void => {
    for (const [key, value] of Object.entries(obj)) {
      const childAt = `${at}.${key}`;
      if (key === "$or") {
        operators.add("$or");
        if (!Array.isArray(value) || value.length === 0 || !value.every(isPlainObject)) {
          throw new EventPatternError(`${childAt}: must be a non-empty array of pattern objects`);
        }
        orGroups.push(
          value.map((alternative, i) => compileNode(alternative, path, `${childAt}[${i}]`, operators, topLevelFields)),
        );
        continue;
      }
      const childPath = path === "" ? key : `${path}.${key}`;
      if (path === "") topLevelFields.add(key);
      if (isPlainObject(value)) {
        collect(value, childPath, childAt);
      } else if (Array.isArray(value)) {
        if (value.length === 0) throw new EventPatternError(`${childAt}: a matcher array must not be empty`);
        const matchers = value.map((entry, i) => compileMatcher(entry, `${childAt}[${i}]`));
        for (const m of matchers) operators.add(m.operator);
        fields.push({ path: childPath, matchers });
      } else {
        throw new EventPatternError(
          `${childAt}: must be an array of matchers or a nested object (write ${JSON.stringify([value])}, not ${JSON.stringify(value)})`,
        );
      }
    }
  };
  collect(object, prefix, where);
  return { fields, orGroups };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
