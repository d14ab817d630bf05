/** Wait: pauses for Seconds or until Timestamp (literal, *Path, or JSONata), on the run's clock. */
import { QueryLanguage, type CompiledStateBase } from "../definition/compiled";
import { StatesError, StatesErrorName } from "../errors";
import { evaluateTyped, type Template } from "../jsonata/template";
import { parseTimestamp } from "../jsonpath/choice-rules";
import { selectPath } from "../jsonpath/dataflow";
import type { PathRoots } from "../jsonpath/intrinsics";
import { evaluatePath, type CompiledPath } from "../jsonpath/path";
import { jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import { ThreadAborted } from "../runtime/retry";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import type { StateType } from "./types";

interface WaitState extends CompiledStateBase {
  readonly seconds?: Template | number;
  readonly timestamp?: Template | string;
  readonly secondsPath?: CompiledPath;
  readonly timestampPath?: CompiledPath;
}

const MAX_SECONDS = 99999999;

export const waitState: StateType<WaitState> = {
  fields: [],
  compile(raw, base, ctx) {
    const { problems, where, tools } = ctx;
    const given = ["Seconds", "Timestamp", "SecondsPath", "TimestampPath"].filter((k) => raw[k] !== undefined);
    if (given.length !== 1) problems.push(`${where}: a Wait state needs exactly one of Seconds, Timestamp, SecondsPath, TimestampPath`);
    const jsonata = base.language === QueryLanguage.JSONata;
    let seconds: Template | number | undefined;
    if (typeof raw.Seconds === "number") {
      if (!Number.isInteger(raw.Seconds) || raw.Seconds < 0 || raw.Seconds > MAX_SECONDS) problems.push(`${where}/Seconds must be an integer from 0 to ${MAX_SECONDS}`);
      seconds = raw.Seconds;
    } else if (raw.Seconds !== undefined) {
      if (!jsonata || typeof raw.Seconds !== "string") problems.push(`${where}/Seconds must be an integer${jsonata ? " or a JSONata expression" : ""}`);
      else seconds = tools.template(raw.Seconds, "Seconds", where);
    }
    let timestamp: Template | string | undefined;
    if (typeof raw.Timestamp === "string") {
      timestamp = jsonata ? tools.template(raw.Timestamp, "Timestamp", where) : raw.Timestamp;
      if (typeof timestamp === "object" && timestamp.constant) timestamp = raw.Timestamp;
      if (typeof timestamp === "string" && parseTimestamp(timestamp) === undefined) {
        problems.push(`${where}/Timestamp: '${timestamp}' is not an ISO-8601 extended offset date-time (e.g. 2016-03-14T01:59:00Z)`);
      }
    } else if (raw.Timestamp !== undefined) problems.push(`${where}/Timestamp must be a string`);
    return {
      ...base,
      seconds,
      timestamp,
      secondsPath: tools.path(raw.SecondsPath, `${where}/SecondsPath`) ?? undefined,
      timestampPath: tools.path(raw.TimestampPath, `${where}/TimestampPath`) ?? undefined,
    };
  },
  async execute(visit, run, thread) {
    const { state } = visit;
    const jsonata = state.language === QueryLanguage.JSONata;
    const input = jsonata ? visit.input : effectiveInput(visit, run, thread);
    let ms = 0;
    if (typeof state.seconds === "number") ms = state.seconds * 1000;
    else if (typeof state.timestamp === "string") ms = (parseTimestamp(state.timestamp) as number) - run.clock.now();
    else if (state.seconds || state.timestamp) {
      const b = jsonataBindings(run, thread, statesVar(run, thread, visit.info, input));
      if (state.seconds && typeof state.seconds !== "number") {
        const s = (await evaluateTyped(state.seconds, b, "number")) as number;
        if (!Number.isInteger(s) || s < 0 || s > MAX_SECONDS) {
          throw new StatesError(StatesErrorName.QueryEvaluationError, `The JSONata expression '${state.seconds.source}' specified for the field 'Seconds' returned an invalid value: ${s}; expected an integer from 0 to ${MAX_SECONDS}.`, { location: "Seconds" });
        }
        ms = s * 1000;
      } else {
        const t = state.timestamp as Template;
        const v = (await evaluateTyped(t, b, "string")) as string;
        const at = parseTimestamp(v);
        if (at === undefined) {
          throw new StatesError(StatesErrorName.QueryEvaluationError, `The JSONata expression '${t.source}' specified for the field 'Timestamp' returned a value that is not an ISO-8601 extended offset date-time format string: ${v}`, { location: "Timestamp" });
        }
        ms = at - run.clock.now();
      }
    } else if (state.secondsPath) {
      const v = readWaitPath(state.secondsPath, "SecondsPath", pathRoots(run, thread, visit.info, input));
      if (!Number.isInteger(v) || (v as number) < 0) {
        throw new StatesError(StatesErrorName.Runtime, `The SecondsPath parameter does not reference a valid non-negative integer: ${state.secondsPath.source} == ${JSON.stringify(v)}`);
      }
      ms = (v as number) * 1000;
    } else if (state.timestampPath) {
      const v = readWaitPath(state.timestampPath, "TimestampPath", pathRoots(run, thread, visit.info, input));
      const at = parseTimestamp(v);
      if (at === undefined) {
        throw new StatesError(StatesErrorName.Runtime, `The TimestampPath parameter does not reference a valid ISO-8601 extended offset date-time format string: ${state.timestampPath.source} == ${JSON.stringify(v)}`);
      }
      ms = at - run.clock.now();
    }
    // TestState reports where a Wait goes without waiting it out.
    if (ms > 0 && !run.probe) {
      try {
        await run.clock.sleep(ms, thread.signal);
      } catch {
        throw new ThreadAborted();
      }
    }
    const output = jsonata
      ? await finishJsonata(visit, run, thread, undefined, visit.input)
      : finishJsonPath(visit, run, thread, input, { selector: false, resultPath: false });
    return { output, next: state.next };
  },
};

/** AWS: "The SecondsPath parameter does not reference an input value: $.x" for a path matching nothing. */
function readWaitPath(path: CompiledPath, field: string, roots: PathRoots): unknown {
  if (path.root.kind !== "input") return selectPath(path, roots);
  const r = evaluatePath(path, roots.input);
  if (!r.found) throw new StatesError(StatesErrorName.Runtime, `The ${field} parameter does not reference an input value: ${path.source}`);
  return r.value;
}
