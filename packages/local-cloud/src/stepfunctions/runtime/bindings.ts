/** `$states` and the variables in scope, as JSONata bindings, plus the roots JSONPath reads. */
import type { PathRoots } from "../jsonpath/intrinsics";
import type { Bindings } from "../jsonata/template";
import { contextObject, type Run, type StateInfo, type Thread } from "./context";
import { exceedsPayloadLimit, terminalDataLimit } from "./data-limit";

interface StatesVar {
  input: unknown;
  context: Record<string, unknown>;
  result?: unknown;
  errorOutput?: unknown;
}

/**
 * Bindings for one evaluation phase of a JSONata state: inherits the variables (no copy) and adds `$states`.
 * With an injected clock, `$now()`/`$millis()` follow it (fixed per evaluation phase, as JSONata fixes them per
 * evaluation).
 */
export function jsonataBindings(run: Run, thread: Thread, states: StatesVar): Bindings {
  const b = Object.create(thread.vars) as Bindings;
  b.states = states;
  if (!run.realClock) {
    // A variable named `now` or `millis` shadows the function, as it does on AWS.
    const t = run.clock.now();
    if (!("millis" in thread.vars)) b.millis = () => t;
    if (!("now" in thread.vars)) b.now = () => new Date(t).toISOString();
  }
  return b;
}

export function statesVar(run: Run, thread: Thread, info: StateInfo, input: unknown): StatesVar {
  return { input, context: contextObject(run, thread, info) };
}

export function pathRoots(run: Run, thread: Thread, info: StateInfo, input: unknown): PathRoots {
  return { input, context: contextObject(run, thread, info), vars: thread.vars };
}

/**
 * Commits an Assign result into the current scope (after all of the state's expressions were evaluated). The
 * variables of one Assign together are limited to 256 KiB (AWS, "Passing data between states with variables").
 */
export function commitAssign(thread: Thread, assigned: unknown, stateName: string): void {
  if (assigned === undefined) return;
  if (exceedsPayloadLimit(assigned)) throw terminalDataLimit(stateName, "variables");
  const values = assigned as Record<string, unknown>;
  for (const key of Object.keys(values)) thread.vars[key] = values[key];
}
