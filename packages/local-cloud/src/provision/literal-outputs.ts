import { resolveString } from "./references";
import type { StackFile } from "./stack-file";

/**
 * The stack's outputs that refer only to literal arguments of its resources (table names, function names,
 * the operation), resolved from the synthesized JSON alone, before anything runs: e.g. to write fault rules
 * that name a table before the local cloud is booted. Outputs that need a running emulator (queue URLs) throw.
 */
export function literalOutputs(stack: StackFile, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      const usedBy = `output.${name}`;
      const value = resolveString(
        String(stack.outputs[name]?.value ?? ""),
        (ref) => {
          const literal = ref.mode === "managed" && ref.path.length === 0 ? stack.resources[ref.type]?.[ref.name]?.[ref.attribute] : undefined;
          if (typeof literal !== "string") throw new Error(`${usedBy}: ${ref.address}.${ref.attribute} is not a literal in ${stack.path}`);
          return literal;
        },
        usedBy,
      );
      return [name, value];
    }),
  );
}
