import { writeFileSync } from "node:fs";

/** Writes outputs the way `terraform output -json` prints them: `{"<name>": {"sensitive": false, "type": …, "value": …}}`. */
export function writeTerraformOutputs(file: string, outputs: Readonly<Record<string, unknown>>): void {
  const shaped = Object.fromEntries(Object.entries(outputs).map(([name, value]) => [name, { sensitive: false, type: typeof value === "number" ? "number" : "string", value }]));
  writeFileSync(file, `${JSON.stringify(shaped, null, 2)}\n`);
}
