/** EventBridge event-pattern matching: compile once (validating), match many times. */
export { compileEventPattern } from "./compile";
export { matchesEventPattern } from "./match";
export type { CompiledPattern, PatternOperator } from "./types";
