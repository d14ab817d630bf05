/** Compiles a definition with the interpreter's state types: the one place that joins the compiler and the table. */
import { compileDefinition } from "./definition/compile";
import type { CompiledMachine } from "./definition/compiled";
import { STATE_TYPES } from "./states/table";

export function compileMachine(definition: unknown): CompiledMachine {
  return compileDefinition(definition, STATE_TYPES);
}
