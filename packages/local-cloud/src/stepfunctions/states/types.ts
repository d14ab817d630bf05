/** The contract of a state type: compile once, execute per visit. One file per type, looked up from a table. */
import type { CompiledProgram, CompiledStateBase, QueryLanguage } from "../definition/compiled";
import type { Run, StateInfo, Thread } from "../runtime/context";
import type { Compiler } from "../definition/compiler";

/** Where a state goes next: `next` undefined ends the program (End, Succeed). */
export interface Step {
  output: unknown;
  next: string | undefined;
}

/** One visit of a state. */
export interface Visit<S extends CompiledStateBase = CompiledStateBase> {
  readonly state: S;
  readonly input: unknown;
  /** `$states.context.State` (RetryCount grows with retries). */
  readonly info: StateInfo;
  /** Id of the `<Type>StateEntered` event (AWS causes quote it). */
  readonly enteredEventId: number;
}

export interface CompileContext {
  /** Problems found so far; each a sentence with its location. */
  readonly problems: string[];
  /** JSON location of the state, e.g. `/States/Claim`. */
  readonly where: string;
  readonly language: QueryLanguage;
  /** Compiles templates, paths and payloads, recording problems. */
  readonly tools: Compiler;
  /** Compiles a nested program (Parallel branch, Map processor) in an inner variable scope. */
  compileProgram(raw: unknown, where: string): CompiledProgram | undefined;
}

export interface StateType<S extends CompiledStateBase = CompiledStateBase> {
  /** Fields this type accepts besides the common ones (for validation). */
  readonly fields: readonly string[];
  compile(raw: Record<string, unknown>, base: CompiledStateBase, ctx: CompileContext): S;
  execute(visit: Visit<S>, run: Run, thread: Thread): Promise<Step>;
}

/**
 * State types by their ASL `Type`. The compiler and the program loop receive it from their caller (machine.ts,
 * machine-compile.ts) rather than importing it, since the Map and Parallel states in it run nested programs.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each entry compiles its own state shape: no one S fits the table
export type StateTable = Readonly<Record<string, StateType<any>>>;
