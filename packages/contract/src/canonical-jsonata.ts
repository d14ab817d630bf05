/**
 * The canonical rule of `canonical.ts`, written in JSONata for the state machine (no Lambda before the claim).
 * The functions are bound inside the Decode expression; a property test (test/contract/) checks that both
 * evaluators give the same text, or the same problem, for generated values.
 *
 * JSONata's `$string` keeps 15 significant digits, so integers are written in two halves of at most 8 digits
 * each, and a fraction is accepted only if its 15-digit text reads back as the same double. `$type` throws on
 * a non-finite number (1e400 parses to Infinity); that error ends in the Parse state's catch-all.
 */
import { MAX_BODY_DEPTH, MAX_EXACT_INTEGER } from "./limits";

/** A JSONata string literal. JSONata knows JSON's escapes only (no `\'`), so a quote is written `\u0027`. */
export function jsonataString(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\u0027")}'`;
}

/** Problem texts as JSONata expressions of `$p` (the path): the same words as `CanonicalProblem`. */
const PROBLEM = {
  inexactInteger: `$p & ': an integer beyond 2^53 - 1, which JSON numbers cannot carry exactly; send it as a string'`,
  inexactFraction: `$p & ': a number with more than 15 significant digits, which cannot be compared exactly; send it as a string'`,
  tooDeep: `$p & ': nested deeper than ${MAX_BODY_DEPTH} levels'`,
};

/**
 * Bindings `$canonStr`, `$canonNum`, `$canonJoin`, `$canon`, `$flat`, `$canonFast` and `$utf8`, as statements of
 * a JSONata block (each ends with `;`). `$canon($v, $path, $depth)` returns the canonical text, or
 * `{'problem': text}`; `$canonFast($v, $path)` the same, through `$string` when nothing needs care.
 */
export const CANONICAL_FUNCTIONS = [
  `$canonStr := function($s) { ( $j := $string([$s]); $substring($j, 1, $length($j) - 2) ) };`,
  `$canonNum := function($n, $p) { $n = $floor($n)`,
  `  ? ($abs($n) > ${MAX_EXACT_INTEGER} ? { 'problem': ${PROBLEM.inexactInteger} } : (`,
  `      $a := $abs($n); $h0 := $floor($a / 100000000); $l0 := $a - $h0 * 100000000;`,
  `      $h := $l0 < 0 ? $h0 - 1 : $h0; $l := $l0 < 0 ? $l0 + 100000000 : $l0;`,
  `      ($n < 0 ? '-' : '') & ($h > 0 ? $string($h) & $pad($string($l), -8, '0') : $string($l)) ))`,
  `  : ( $s := $string($n); $number($s) = $n ? $s : { 'problem': ${PROBLEM.inexactFraction} } ) };`,
  `$canonJoin := function($items, $open, $close) { ( $bad := $items[$type($) = 'object'][0]; $bad ? $bad : $open & $join($items, ',') & $close ) };`,
  `$canon := function($v, $p, $d) { $d > ${MAX_BODY_DEPTH} ? { 'problem': ${PROBLEM.tooDeep} }`,
  `  : $v = null ? 'null'`,
  `  : $type($v) = 'boolean' ? ($v ? 'true' : 'false')`,
  `  : $type($v) = 'string' ? $canonStr($v)`,
  `  : $type($v) = 'number' ? $canonNum($v, $p)`,
  `  : $type($v) = 'array' ? $canonJoin($map($v, function($x, $i) { $canon($x, $p & '[' & $i & ']', $d + 1) }), '[', ']')`,
  `  : $canonJoin($map($sort($keys($v)), function($k) { ( $c := $canon($lookup($v, $k), $p & '.' & $k, $d + 1); $type($c) = 'object' ? $c : $canonStr($k) & ':' & $c ) }), '{', '}') };`,
  // The payload object: members named by their field, at depth 1 as in the body.
  `$canonPayload := function($o) { $canonJoin($map($sort($keys($o)), function($k) { ( $c := $canon($lookup($o, $k), $k, 1); $type($c) = 'object' ? $c : $canonStr($k) & ':' & $c ) }), '{', '}') };`,
  // A value $string writes exactly as the canonical form does: no member order to fix, no digits to lose.
  `$flat := function($v) { $v = null or $type($v) = 'string' or $type($v) = 'boolean' or ($type($v) = 'number' and $abs($v) < 1e15 and ($v = $floor($v) or $number($string($v)) = $v)) };`,
  // The common case without recursion: JSONata evaluates slowly, and most keys and payloads are flat.
  `$canonFast := function($v, $p) { ($type($v) = 'array' and $count($v[$not($flat($))]) = 0) or ($type($v) = 'object' and $count($each($v, function($x) { $flat($x) })[$ = false]) = 0) ? $string($v) : $canon($v, $p, 0) };`,
  // Canonical text never holds a lone surrogate, so $encodeUrlComponent cannot fail: each %XX is one byte.
  `$utf8 := function($s) { ( $e := $encodeUrlComponent($s); $length($e) - 2 * ($length($e) - $length($replace($e, '%', ''))) ) };`,
].join(" ");

/** `$tooDeep($v, $d)`: true when the value nests deeper than the limit; stops descending there. */
export const DEPTH_FUNCTION = [
  `$tooDeep := function($v, $d) { $d > ${MAX_BODY_DEPTH} ? true`,
  `  : $v = null ? false`,
  `  : $type($v) = 'array' ? (true in $map($v, function($x) { $tooDeep($x, $d + 1) }))`,
  `  : $type($v) = 'object' ? (true in $each($v, function($x) { $tooDeep($x, $d + 1) }))`,
  `  : false };`,
].join(" ");
