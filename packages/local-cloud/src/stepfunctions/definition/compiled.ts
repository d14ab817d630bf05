/** The compiled form of a definition: everything parsed and compiled once, at creation. */
import type { CompiledPath } from "../jsonpath/path";
import type { PayloadTemplate } from "../jsonpath/payload";
import type { Template } from "../jsonata/template";

export const QueryLanguage = { JSONata: "JSONata", JSONPath: "JSONPath" } as const;
export type QueryLanguage = (typeof QueryLanguage)[keyof typeof QueryLanguage];

export interface Retrier {
  errorEquals: readonly string[];
  intervalSeconds: number;
  maxAttempts: number;
  backoffRate: number;
  maxDelaySeconds?: number;
  jitter: "FULL" | "NONE";
}

export interface Catcher {
  errorEquals: readonly string[];
  next: string;
  /** JSONata */
  assign?: Template;
  output?: Template;
  /** JSONPath: ResultPath (undefined = `$`, null = discard). */
  resultPath?: ResultPathSpec;
  assignPath?: PayloadTemplate;
}

/** JSONPath ResultPath: `null` keeps the input, else a definite path into the input. */
type ResultPathSpec = CompiledPath | null;

/** Fields every state has after compilation. */
export interface CompiledStateBase {
  readonly name: string;
  readonly type: string;
  readonly language: QueryLanguage;
  /** Next state name; undefined when End (or for Choice/Succeed/Fail). */
  readonly next?: string;
  readonly assign?: Template;
  readonly output?: Template;
  readonly inputPath?: CompiledPath | null;
  readonly outputPath?: CompiledPath | null;
  readonly resultPath?: ResultPathSpec;
  readonly parameters?: PayloadTemplate;
  readonly resultSelector?: PayloadTemplate;
  readonly assignPath?: PayloadTemplate;
  readonly retry?: readonly Retrier[];
  readonly catch?: readonly Catcher[];
}

/** A whole definition, ready to run. */
export interface CompiledMachine {
  readonly program: CompiledProgram;
  readonly timeoutSeconds?: number;
  readonly language: QueryLanguage;
}

/** A list of states with its entry point (the machine, a Parallel branch or a Map processor). */
export interface CompiledProgram {
  readonly startAt: string;
  readonly states: ReadonlyMap<string, CompiledStateBase>;
}
