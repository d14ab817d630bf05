/** Runs a program (the machine, a branch, an iteration): state after state until End, Succeed or an error. */
import { StatesError, toStatesError } from "../errors";
import type { CompiledProgram } from "../definition/compiled";
import type { StateTable, Visit } from "../states/types";
import type { Run, StateInfo, Thread } from "./context";
import { decorateStateError } from "./decorate";
import { exceedsPayloadLimit, terminalDataLimit } from "./data-limit";
import { ThreadAborted } from "./retry";

/** States that accept Retry; only they report `$states.context.State.RetryCount` (see runtime/context.ts). */
export const RETRYABLE = new Set(["Task", "Map", "Parallel"]);

/** `types` comes from the caller (machine.ts): the states in it run nested programs through `run.runProgram`. */
export async function runProgram(types: StateTable, program: CompiledProgram, input: unknown, run: Run, thread: Thread): Promise<unknown> {
  const h = run.history;
  let name = program.startAt;
  let value = input;
  for (;;) {
    if (thread.signal.aborted) throw new ThreadAborted();
    const state = program.states.get(name);
    if (!state) throw new StatesError("States.Runtime", `The state '${name}' does not exist.`);
    const type = types[state.type];
    const enteredEventId = h.add(thread, `${state.type}StateEntered`, h.on ? { name, input: value } : undefined);
    const info: StateInfo = { Name: name, EnteredTime: new Date(run.clock.now()).toISOString(), RetryCount: 0, retryable: RETRYABLE.has(state.type) };
    const visit: Visit = { state, input: value, info, enteredEventId };
    let step;
    try {
      step = await type.execute(visit, run, thread);
    } catch (e) {
      if (e instanceof ThreadAborted || thread.signal.aborted) throw e instanceof ThreadAborted ? e : new ThreadAborted();
      throw decorateStateError(toStatesError(e), name, enteredEventId, run, thread);
    }
    // A state output over the quota fails the execution before the state exits (recorded on AWS).
    if (exceedsPayloadLimit(step.output)) throw terminalDataLimit(name, "output");
    if (state.type !== "Fail") h.add(thread, `${state.type}StateExited`, h.on ? { name, output: step.output } : undefined);
    run.onTransition?.(name, step.next, step.output);
    if (step.next === undefined) return step.output;
    name = step.next;
    value = step.output;
  }
}
