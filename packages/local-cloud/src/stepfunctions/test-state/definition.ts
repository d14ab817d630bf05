/**
 * The state a TestState request tests: a lone state's definition, or the state `stateName` of a whole machine
 * (nested Map and Parallel states included). A whole machine is validated as a whole first, as AWS does. The state
 * is then compiled alone under the name "StateName", the name AWS gives it (recorded on AWS: `$states.context.State
 * .Name` is "StateName" even with `stateName`, and a lone state's errors point at /States/StateName/...). Its
 * transitions lead out of the test, so each target gets a placeholder state the test never enters.
 */
import { DefinitionError } from "../errors";
import { QueryLanguage, type CompiledMachine, type CompiledStateBase } from "../definition/compiled";
import { compileMachine } from "../machine-compile";
import { invalidDefinition, invalidJson } from "./definition-errors";
import { ValidationException } from "./errors";

/** The name AWS runs the tested state under. */
export const TESTED_STATE = "StateName";

export interface StateUnderTest {
  /** The state's own definition, as given. */
  readonly raw: Readonly<Record<string, unknown>>;
  readonly type: string;
  readonly language: QueryLanguage;
  readonly compiled: CompiledStateBase;
  /** The one-state machine around it (its program holds the state and the placeholders). */
  readonly machine: CompiledMachine;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function compile(definition: unknown): CompiledMachine {
  try {
    return compileMachine(definition);
  } catch (e) {
    if (e instanceof DefinitionError) throw invalidDefinition(e.problems);
    throw e;
  }
}

/** The state named `name` in a program or any program nested in its Map and Parallel states (first found). */
function findState(program: unknown, name: string): Json | undefined {
  const states = isObject(program) ? program.States : undefined;
  if (!isObject(states)) return undefined;
  if (Object.hasOwn(states, name) && isObject(states[name])) return states[name];
  for (const state of Object.values(states)) {
    if (!isObject(state)) continue;
    const nested = [state.ItemProcessor ?? state.Iterator, ...(Array.isArray(state.Branches) ? state.Branches : [])];
    for (const inner of nested) {
      const found = findState(inner, name);
      if (found) return found;
    }
  }
  return undefined;
}

/** Every state name a state may hand over to. */
function transitions(state: Json): string[] {
  const targets = [state.Next, state.Default];
  for (const list of [state.Choices, state.Catch]) if (Array.isArray(list)) for (const item of list) if (isObject(item)) targets.push(item.Next);
  return [...new Set(targets.filter((t): t is string => typeof t === "string" && t !== TESTED_STATE))];
}

export function stateUnderTest(definition: string, stateName: string | undefined): StateUnderTest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(definition);
  } catch (e) {
    throw invalidJson((e as Error).message);
  }
  let raw: unknown = parsed;
  let language: QueryLanguage = QueryLanguage.JSONPath;
  if (stateName !== undefined) {
    compile(parsed);
    const machine = parsed as Json;
    raw = findState(machine, stateName);
    if (!raw) throw new ValidationException("State not found in definition");
    if (machine.QueryLanguage === QueryLanguage.JSONata) language = QueryLanguage.JSONata;
  }
  // Object.fromEntries defines the names as own properties: a state named "__proto__" stays a state.
  const states = Object.fromEntries([[TESTED_STATE, raw], ...(isObject(raw) ? transitions(raw).map((t) => [t, { Type: "Succeed" }]) : [])]);
  const wrapper = { ...(language === QueryLanguage.JSONata ? { QueryLanguage: language } : {}), StartAt: TESTED_STATE, States: states };
  const machine = compile(wrapper);
  const compiled = machine.program.states.get(TESTED_STATE) as CompiledStateBase;
  return { raw: raw as Json, type: compiled.type, language: compiled.language, compiled, machine };
}
