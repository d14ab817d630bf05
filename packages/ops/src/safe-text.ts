/**
 * Message data (bodies, keys, details) is attacker-shaped text, and the CLI prints it on an operator's terminal.
 * What must never reach the terminal raw:
 * - C0 controls and DEL: ESC starts escape sequences (colours, cursor moves, window titles, OSC 52 clipboard
 *   writes), CR rewrites a line, BS erases, BEL rings;
 * - C1 controls (U+0080–U+009F): U+009B is an 8-bit CSI for terminals that honour it;
 * - bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069): they reorder what is shown
 *   ("Trojan Source"), and U+2028/U+2029, which some terminals and editors treat as line breaks;
 * - lone surrogates: not text at all; printed, they become U+FFFD and two different keys look alike.
 * Each is shown as its escape, `\u001b`, so what the operator sees can be typed back (e.g. as a `--key`).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** The same set minus what JSON.stringify escapes already (C0 and lone surrogates, since Node 12). */
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escape(char: string): string {
  return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** One value for one line (a table cell, a field): every unsafe character escaped, newlines included. */
export function safeCell(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** Text the CLI itself laid out over several lines: everything escaped except the line breaks. */
export function safeLines(text: string): string {
  return text.split("\n").map(safeCell).join("\n");
}

/** A `\udXXX` escape that JSON.stringify wrote for a lone surrogate (not preceded by an escaping backslash). */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(d[89a-f][0-9a-f]{2})/gi;

/**
 * `--json` output. JSON.stringify already writes C0 controls as `\uXXXX`, and lone surrogates too (well-formed
 * JSON.stringify, Node ≥ 12), so JSON.parse reads it back exactly. jq 1.6 does not: it refuses a lone-surrogate
 * escape ("Invalid \uXXXX\uXXXX surrogate pair escape", exit 4). So a lone surrogate is written as the six
 * characters `\ud800`, the same text the tables show; every other string is unchanged. The rest of the unsafe
 * set (DEL, C1, bidi controls), which JSON.stringify leaves raw, is escaped too; it only occurs inside strings,
 * so the document still parses to the same value.
 */
export function safeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(LONE_SURROGATE_ESCAPE, "$1\\\\u$2").replace(UNSAFE_IN_JSON, escape);
}
