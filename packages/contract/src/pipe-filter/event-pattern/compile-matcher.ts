import { EventPatternError } from "../errors";
import { compileCidr } from "./cidr";
import type { Matcher, NumericBound } from "./types";
import { compileWildcard } from "./wildcard";

/** EventBridge's numeric range: values outside it are refused in patterns and never match in events. */
export const NUMERIC_LIMIT = 5e9;

/**
 * Compiles one entry of a field's matcher array: a JSON primitive (exact match) or an operator object such as
 * `{"prefix": "us-"}`. `where` is the JSON location used in error messages.
 */
export function compileMatcher(entry: unknown, where: string): Matcher {
  if (entry === null || typeof entry === "string" || typeof entry === "boolean") return { operator: "equals", value: entry };
  if (typeof entry === "number") return { operator: "equals", value: checkNumber(entry, where) };
  if (typeof entry !== "object" || Array.isArray(entry)) {
    throw new EventPatternError(`${where}: a matcher must be a string, number, boolean, null or an operator object`);
  }
  const keys = Object.keys(entry);
  if (keys.length !== 1) {
    throw new EventPatternError(`${where}: an operator object must have exactly one key, found ${keys.length}`);
  }
  const operator = keys[0];
  const value = (entry as Record<string, unknown>)[operator];
  const at = `${where}.${operator}`;
  switch (operator) {
    case "prefix":
    case "suffix":
      return compilePrefixSuffix(operator, value, at);
    case "equals-ignore-case":
      return { operator, value: requireString(value, at) };
    case "wildcard":
      return { operator, regex: compileWildcard(requireString(value, at), at) };
    case "numeric":
      return compileNumeric(value, at);
    case "exists":
      if (typeof value !== "boolean") throw new EventPatternError(`${at}: must be true or false`);
      return { operator, value };
    case "cidr":
      return { operator, ...compileCidr(requireString(value, at), at) };
    case "anything-but":
      return compileAnythingBut(value, at);
    default:
      throw new EventPatternError(
        `${where}: unknown operator "${operator}" (operators are case-sensitive: prefix, suffix, equals-ignore-case, ` +
          "wildcard, numeric, exists, cidr, anything-but)",
      );
  }
}

function compilePrefixSuffix(operator: "prefix" | "suffix", value: unknown, at: string): Matcher {
  if (typeof value === "string") return { operator, value, ignoreCase: false };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "equals-ignore-case") {
      const inner = requireString((value as Record<string, unknown>)[keys[0]], `${at}.equals-ignore-case`);
      return { operator, value: inner, ignoreCase: true };
    }
  }
  throw new EventPatternError(`${at}: must be a string or {"equals-ignore-case": "<string>"}`);
}

const LOWER_OPS: Record<string, boolean> = { ">": false, ">=": true };
const UPPER_OPS: Record<string, boolean> = { "<": false, "<=": true };

function compileNumeric(value: unknown, at: string): Matcher {
  if (!Array.isArray(value) || value.length === 0 || value.length % 2 !== 0 || value.length > 4) {
    throw new EventPatternError(`${at}: must be an array of operator/number pairs, e.g. [">", 0, "<=", 5]`);
  }
  let lower: NumericBound | undefined;
  let upper: NumericBound | undefined;
  for (let i = 0; i < value.length; i += 2) {
    const op = value[i];
    const n = value[i + 1];
    if (typeof n !== "number") throw new EventPatternError(`${at}[${i + 1}]: must be a number`);
    checkNumber(n, `${at}[${i + 1}]`);
    if (op === "=") {
      if (value.length !== 2) throw new EventPatternError(`${at}: "=" cannot be combined with other operators`);
      return { operator: "numeric", equals: n };
    }
    if (typeof op === "string" && op in LOWER_OPS && !lower) {
      lower = { value: n, inclusive: LOWER_OPS[op] };
    } else if (typeof op === "string" && op in UPPER_OPS && !upper) {
      upper = { value: n, inclusive: UPPER_OPS[op] };
    } else {
      throw new EventPatternError(`${at}[${i}]: unexpected operator ${JSON.stringify(op)} (use =, <, <=, >, >=; one lower and one upper bound)`);
    }
  }
  if (lower && upper && lower.value > upper.value) {
    throw new EventPatternError(`${at}: the lower bound ${lower.value} is above the upper bound ${upper.value}`);
  }
  return { operator: "numeric", lower, upper };
}

function compileAnythingBut(value: unknown, at: string): Matcher {
  if (typeof value === "string") return { operator: "anything-but", values: [value] };
  if (typeof value === "number") return { operator: "anything-but", values: [checkNumber(value, at)] };
  if (Array.isArray(value)) {
    const allStrings = value.every((v) => typeof v === "string");
    const allNumbers = value.every((v) => typeof v === "number");
    if (value.length === 0 || (!allStrings && !allNumbers)) {
      throw new EventPatternError(`${at}: a list must be non-empty and hold only strings or only numbers`);
    }
    return { operator: "anything-but", values: value as (string | number)[] };
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    const inner = (value as Record<string, unknown>)[keys[0]];
    const innerAt = `${at}.${keys[0]}`;
    if (keys.length === 1) {
      switch (keys[0]) {
        case "prefix":
        case "suffix": {
          const values = requireStrings(inner, innerAt);
          if (values.some((v) => v === "")) throw new EventPatternError(`${innerAt}: must not be empty`);
          return { operator: keys[0] === "prefix" ? "anything-but/prefix" : "anything-but/suffix", values };
        }
        case "equals-ignore-case":
          return { operator: "anything-but/equals-ignore-case", values: requireStrings(inner, innerAt) };
        case "wildcard":
          return {
            operator: "anything-but/wildcard",
            regexes: requireStrings(inner, innerAt).map((w) => compileWildcard(w, innerAt)),
          };
      }
    }
  }
  throw new EventPatternError(
    `${at}: must be a string, a number, a list of strings or numbers, or one of {"prefix"}, {"suffix"}, ` +
      '{"equals-ignore-case"}, {"wildcard"}',
  );
}

function requireString(value: unknown, at: string): string {
  if (typeof value !== "string") throw new EventPatternError(`${at}: must be a string`);
  return value;
}

function requireStrings(value: unknown, at: string): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return value as string[];
  throw new EventPatternError(`${at}: must be a string or a non-empty list of strings`);
}

function checkNumber(n: number, at: string): number {
  if (!Number.isFinite(n) || Math.abs(n) > NUMERIC_LIMIT) {
    throw new EventPatternError(`${at}: numbers must lie between -5e9 and 5e9`);
  }
  return n;
}
