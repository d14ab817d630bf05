import { resolveString } from "./references";
import type { StackFile } from "./stack-file";

/**
 * The stack's outputs that refer only to literal arguments of its resources (table names, function names,
 * the operation), resolved from the synthesized JSON alone, before anything runs: e.g. to write fault rules
 * that name a table before the local cloud is booted. Outputs that need a running emulator (queue URLs) throw.
 */
export function literalOutputs(stack: StackFile, names: readonly string[]): Record<string, string> {
  const lookup = (type: string, name: string, attribute: string, usedBy: string): string => {
    const value = stack.resources[type]?.[name]?.[attribute];
    if (typeof value !== "string") throw new Error(`${usedBy}: ${type}.${name}.${attribute} is not a literal in ${stack.path}`);
    return value;
  };
  return Object.fromEntries(names.map((name) => [name, resolveString(String(stack.outputs[name]?.value ?? ""), lookup, `output.${name}`)]));
}
