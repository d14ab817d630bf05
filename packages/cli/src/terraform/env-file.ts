import { readFileSync } from "node:fs";
import { PlanInputError } from "./errors";

/**
 * Reads a dotenv-style file (`KEY=value` lines, `#` comments, optional `export ` and quotes) into variables.
 * Used for `--base-env` / `--head-env`: the same PIPELINE_* variables `main.ts` reads.
 */
export function parseEnvFile(text: string, source = "env file"): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (!match) throw new PlanInputError(`${source} line ${index + 1}: expected KEY=value, got "${trimmed}"`);
    let value = match[2];
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2];
    else value = value.replace(/\s+#.*$/, "");
    out[match[1]] = value;
  });
  return out;
}

export function readEnvFile(path: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new PlanInputError(`cannot read env file ${path}: ${(error as Error).message}`, { cause: error });
  }
  return parseEnvFile(text, path);
}
