/**
 * Field rules (`field-rules.ts`) rendered as JSONata for the state machine's Decode step: one expression per
 * field that yields the same problem text as `fieldProblem`, or nothing. `$body` is the parsed message body.
 */
import { CanonicalProblem } from "./canonical";
import { jsonataString } from "./canonical-jsonata";
import { describeRule, FieldType, type FieldRule } from "./field-rules";
import { MAX_EXACT_INTEGER, MAX_QUOTED_VALUE_CHARS } from "./limits";

/**
 * `$quote($v)`: the value's JSON text, cut short (as `quoteValue`, up to 15 significant digits). A value is wrapped
 * in an array so `$string` quotes a string, and the brackets cut off again; an array is bracketed by hand, because
 * JSONata's array constructor flattens it (`[[1]]` is `[1]`, `[[]]` is `[]`).
 */
export const QUOTE_FUNCTION = `$quote := function($v) { ( $t := $type($v) = 'array' ? '[' & $string($v) & ']' : $string([$v]); $q := $substring($t, 1, $length($t) - 2); $length($q) > ${MAX_QUOTED_VALUE_CHARS} ? $substring($q, 0, ${MAX_QUOTED_VALUE_CHARS}) & '...' : $q ) };`;

function exactInteger(v: string): string {
  return `($type(${v}) = 'number' and ${v} = $floor(${v}) and $abs(${v}) <= ${MAX_EXACT_INTEGER})`;
}

function bounds(rule: { minimum?: number; maximum?: number }, v: string): string {
  const parts: string[] = [];
  if (rule.minimum !== undefined) parts.push(`${v} >= ${JSON.stringify(rule.minimum)}`);
  if (rule.maximum !== undefined) parts.push(`${v} <= ${JSON.stringify(rule.maximum)}`);
  return parts.length ? ` and ${parts.join(" and ")}` : "";
}

/** A JSONata condition that holds when `$v` satisfies the rule (`and` short-circuits, so no type error). */
function ruleCondition(rule: FieldRule, v = "$v"): string {
  switch (rule.type) {
    case FieldType.String: {
      const checks = [`$type(${v}) = 'string'`, `$length(${v}) >= ${rule.minLength ?? 1}`];
      if (rule.maxLength !== undefined) checks.push(`$length(${v}) <= ${rule.maxLength}`);
      if (rule.pattern !== undefined) checks.push(`$contains(${v}, /${rule.pattern}/)`);
      return `(${checks.join(" and ")})`;
    }
    case FieldType.Integer:
      return `(${exactInteger(v)}${bounds(rule, v)})`;
    case FieldType.Number:
      return `($type(${v}) = 'number'${bounds(rule, v)})`;
    case FieldType.Boolean:
      return `($type(${v}) = 'boolean')`;
    case FieldType.StringOrInteger:
      return `(($type(${v}) = 'string' and $length(${v}) > 0) or ${exactInteger(v)})`;
    case FieldType.Any:
      return "true";
  }
}

/**
 * Rules that no missing value and no inexact number can satisfy: for these a value that satisfies the rule has no
 * problem at all, so the rule is tested first and the common, valid value costs one test instead of four. Number
 * and Any admit an inexact number, which is named as such before the rule, so they keep the order of `fieldProblem`.
 */
const RULE_FIRST: ReadonlySet<string> = new Set([FieldType.String, FieldType.Integer, FieldType.Boolean, FieldType.StringOrInteger]);

/** The problem with one field, as `fieldProblem` words it, or undefined. Needs `$body` and `$quote` in scope. */
export function fieldProblemExpression(field: string, rule: FieldRule): string {
  const name = jsonataString(field);
  const expected = jsonataString(`${field}: expected ${describeRule(rule)}, got `);
  const inexactInteger = jsonataString(CanonicalProblem.inexactInteger(field));
  const inexactFraction = jsonataString(CanonicalProblem.inexactFraction(field));
  const problems =
    `$not($exists($v)) ? ${expected} & 'nothing'` +
    ` : ($type($v) = 'number' and $v = $floor($v) and $abs($v) > ${MAX_EXACT_INTEGER}) ? ${inexactInteger}` +
    ` : ($type($v) = 'number' and $v != $floor($v) and $number($string($v)) != $v) ? ${inexactFraction}`;
  return RULE_FIRST.has(rule.type)
    ? `( $v := $lookup($body, ${name}); ${ruleCondition(rule)} ? undefined : ${problems} : ${expected} & $quote($v) )`
    : `( $v := $lookup($body, ${name}); ${problems} : ${ruleCondition(rule)} ? undefined : ${expected} & $quote($v) )`;
}
