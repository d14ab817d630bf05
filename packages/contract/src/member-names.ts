/**
 * One rule of I-JSON (RFC 7493 §2.3, "Object member names MUST be unique"), the only one the pipeline adopts: a body
 * in which one object holds a member name twice is `invalid-message`. JSON.parse keeps the last such member and says
 * nothing, and whether AWS's `$parse` keeps the first or the last is not this project's code, so `{"amount":100,
 * "amount":900}` could be charged 900 by one reader and keyed by 100 by another. Names are compared after their
 * escapes are read (`"a"` and `"\u0061"` are one name), code unit by code unit, as the parsed object compares them.
 *
 * Two twins, two methods, one rule (held together by test/contract/duplicate-members.test.ts):
 * - {@link duplicateMemberName} (TypeScript, the operator CLI and the TypeScript decoder) scans the text, one set of
 *   names per open object;
 * - {@link DUPLICATE_MEMBERS_FUNCTION} (JSONata, the Decode step) counts instead of scanning, since a scan per
 *   character costs a JSONata function call per character: outside strings, a text JSON.parse accepts holds exactly
 *   one `:` per member, and the parsed value holds one key per distinct name per object. The text has a duplicate
 *   exactly when it holds more members than the parsed value has keys (a dropped member takes its value's members with
 *   it, so never fewer), whichever duplicate `$parse` keeps.
 */

/**
 * The first member name a JSON text holds twice in one object, at any depth; undefined when every object's names are
 * unique. For a text `JSON.parse` accepts (call it after parsing): it reads no further than it needs to.
 */
export function duplicateMemberName(text: string): string | undefined {
  // One entry per open bracket: the names seen so far in an object, null for an array.
  const open: (Set<string> | null)[] = [];
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x7b /* { */) open.push(new Set());
    else if (c === 0x5b /* [ */) open.push(null);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) open.pop();
    else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      let next = end;
      while (next < text.length && isJsonSpace(text.charCodeAt(next))) next += 1;
      const names = open[open.length - 1];
      if (text.charCodeAt(next) === 0x3a /* : */ && names) {
        // The token is valid JSON (the text parsed), so JSON.parse reads its escapes exactly as the body's parse did.
        const name = JSON.parse(text.slice(i, end)) as string;
        if (names.has(name)) return name;
        names.add(name);
      }
      i = end - 1;
    }
  }
  return undefined;
}

/** The index just past the string token that opens at `start` (a `"`): a backslash always escapes the next unit. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i += 2;
    else if (c === 0x22) return i + 1;
    else i += 1;
  }
  return i;
}

/** JSON's insignificant whitespace (RFC 8259 §2): space, tab, line feed, carriage return. */
function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * `$duplicateMembers($text, $parsed)`: true when the JSON text `$text`, parsed as `$parsed`, holds a member name twice in
 * one object. It counts the `:` outside string tokens of the text, and of `$string($parsed)` (JSON.stringify of the
 * parsed value: one `:` per key it kept), so that no JSONata function runs per member or per node: a native regex
 * replace removes the string tokens, one token per step, and a native split counts. A body with a single `{` and no
 * more `:` in all than keys (most flat bodies) is answered without the replace. The regex spells `"` and `\` as
 * `\x22` and `\x5c`: JSONata's scanner would take the `]` after `\\` for an escaped one, and a `"` inside the
 * definition's JSON needs none.
 */
export const DUPLICATE_MEMBERS_FUNCTION = [
  "$structuralColons := function($json) { $count($split($replace($json, /\\x22[^\\x22\\x5c]*(?:\\x5c.[^\\x22\\x5c]*)*\\x22/, ''), ':')) - 1 };",
  "$duplicateMembers := function($text, $parsed) { (",
  "  $colons := $count($split($text, ':')) - 1;",
  "  ($count($split($text, '{')) = 2 and $colons = $count($keys($parsed))) ? false",
  "  : $structuralColons($text) > $structuralColons($string($parsed))",
  ") };",
].join(" ");
