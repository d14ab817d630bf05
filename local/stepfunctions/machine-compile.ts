/** A definition compiled for execution. */
import { compileDefinition } from "./definition/compile";
import type { CompiledProgram, QueryLanguage } from "./definition/compiled";

export interface CompiledMachine {
  readonly program: CompiledProgram;
  readonly timeoutSeconds?: number;
  readonly language: QueryLanguage;
}

export function compileMachine(definition: unknown): CompiledMachine {
  return compileDefinition(definition);
}
