import { parseIp } from "./cidr";
import { NUMERIC_LIMIT } from "./compile-matcher";
import type { LeafValue, Matcher } from "./types";

/**
 * Whether one matcher accepts the values found at its field. `values` is empty when the event has no leaf
 * there (field absent, an empty array, or an object: EventBridge matches leaves only).
 * A field holding an array matches when any element does, the EventBridge rule for arrays.
 */
export function matcherAccepts(matcher: Matcher, values: readonly LeafValue[]): boolean {
  if (matcher.operator === "exists") return matcher.value === values.length > 0;
  return values.some((value) => acceptsValue(matcher, value));
}

function acceptsValue(matcher: Exclude<Matcher, { operator: "exists" }>, value: LeafValue): boolean {
  switch (matcher.operator) {
    case "equals":
      return value === matcher.value;
    case "prefix":
      return typeof value === "string" && fold(value, matcher.ignoreCase).startsWith(fold(matcher.value, matcher.ignoreCase));
    case "suffix":
      return typeof value === "string" && fold(value, matcher.ignoreCase).endsWith(fold(matcher.value, matcher.ignoreCase));
    case "equals-ignore-case":
      return typeof value === "string" && fold(value, true) === fold(matcher.value, true);
    case "wildcard":
      return typeof value === "string" && matcher.regex.test(value);
    case "numeric":
      return typeof value === "number" && inNumericRange(matcher, value);
    case "cidr": {
      const ip = typeof value === "string" ? parseIp(value) : undefined;
      return ip !== undefined && ip.version === matcher.version && (ip.value & matcher.mask) === matcher.network;
    }
    // anything-but: a value of another type (null, a number against strings) is "anything but" too.
    case "anything-but":
      return !matcher.values.includes(value as string | number);
    case "anything-but/prefix":
      return typeof value !== "string" || !matcher.values.some((p) => value.startsWith(p));
    case "anything-but/suffix":
      return typeof value !== "string" || !matcher.values.some((s) => value.endsWith(s));
    case "anything-but/equals-ignore-case":
      return typeof value !== "string" || !matcher.values.some((v) => fold(v, true) === fold(value, true));
    case "anything-but/wildcard":
      return typeof value !== "string" || !matcher.regexes.some((r) => r.test(value));
  }
}

function inNumericRange(matcher: Extract<Matcher, { operator: "numeric" }>, value: number): boolean {
  if (Math.abs(value) > NUMERIC_LIMIT) return false;
  if (matcher.equals !== undefined) return value === matcher.equals;
  const { lower, upper } = matcher;
  if (lower && !(lower.inclusive ? value >= lower.value : value > lower.value)) return false;
  if (upper && !(upper.inclusive ? value <= upper.value : value < upper.value)) return false;
  return true;
}

function fold(text: string, ignoreCase: boolean): string {
  return ignoreCase ? text.toLowerCase() : text;
}
