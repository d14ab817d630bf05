import { EventPatternError } from "../errors";

/**
 * Compiles an EventBridge `wildcard` value to an anchored regular expression.
 * `*` matches any run of characters (also none); `\*` is a literal star and `\\` a literal backslash.
 * Two consecutive `*` are refused, as EventBridge refuses them.
 */
export function compileWildcard(pattern: string, where: string): RegExp {
  let source = "^";
  let previousWasStar = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") {
      const next = pattern[i + 1];
      if (next !== "*" && next !== "\\") {
        throw new EventPatternError(`${where}: invalid escape in wildcard "${pattern}" (only \\* and \\\\ are allowed)`);
      }
      source += escapeRegex(next);
      i++;
      previousWasStar = false;
      continue;
    }
    if (ch === "*") {
      if (previousWasStar) {
        throw new EventPatternError(`${where}: consecutive wildcard characters are not allowed in "${pattern}"`);
      }
      source += "[\\s\\S]*";
      previousWasStar = true;
      continue;
    }
    source += escapeRegex(ch);
    previousWasStar = false;
  }
  return new RegExp(`${source}$`, "u");
}

function escapeRegex(ch: string): string {
  return /[.*+?^${}()|[\]\\]/.test(ch) ? `\\${ch}` : ch;
}
