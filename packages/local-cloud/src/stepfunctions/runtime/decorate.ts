/** AWS prefixes run-time and query errors with the state and the id of its entered event. */
import { StatesError, StatesErrorName } from "../errors";
import type { Run, Thread } from "./context";

const PREFIX = "An error occurred while executing the state '";

/**
 * Adds "An error occurred while executing the state 'X' (entered at the event id #N). " to a
 * States.QueryEvaluationError or States.Runtime cause (once), and records EvaluationFailed for query errors.
 */
export function decorateStateError(err: StatesError, stateName: string, enteredEventId: number, run: Run, thread: Thread): StatesError {
  if (err.error !== StatesErrorName.QueryEvaluationError && err.error !== StatesErrorName.Runtime) return err;
  if (err.name === "FailStateError" || err.causeText.startsWith(PREFIX)) return err;
  // TestState has no event history, and its causes carry no prefix (recorded on AWS: a States.Runtime cause of a
  // Map's ItemsPath is the bare message).
  if (run.probe) return err;
  const cause = `${PREFIX}${stateName}' (entered at the event id #${enteredEventId}). ${err.causeText}`;
  const decorated = new StatesError(err.error, cause, { cause: err, location: err.location });
  if (err.error === StatesErrorName.QueryEvaluationError) {
    const h = run.history;
    h.add(thread, "EvaluationFailed", h.on ? { error: err.error, cause, location: err.location, state: stateName } : undefined);
  }
  return decorated;
}
