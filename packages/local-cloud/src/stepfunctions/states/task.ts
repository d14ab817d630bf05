/**
 * Task: calls an integration (looked up from the resource table) with Arguments/Parameters, under
 * TimeoutSeconds, Retry and Catch.
 */
import { NO_LONGER_NEEDED } from "../../clock/clock";
import { QueryLanguage, type CompiledStateBase } from "../definition/compiled";
import { StatesError, StatesErrorName } from "../errors";
import { evaluateTyped, type Template } from "../jsonata/template";
import { selectPath } from "../jsonpath/dataflow";
import type { CompiledPath } from "../jsonpath/path";
import { findIntegration, unsupportedResource } from "../integrations/table";
import type { TaskHandler } from "../integrations/types";
import { commitAssign, jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import type { Run, Thread } from "../runtime/context";
import { runExecutionState } from "../runtime/execution-state";
import { effectiveInput, finishJsonPath } from "../runtime/io";
import { exceedsPayloadLimit, resultTooLarge, terminalDataLimit } from "../runtime/data-limit";
import { ThreadAborted } from "../runtime/retry";
import { answerMock } from "../mocks/answer";
import type { StateType } from "./types";

interface TaskState extends CompiledStateBase {
  readonly resource: string;
  readonly handler?: TaskHandler;
  readonly arguments?: Template;
  readonly timeout?: Template | number;
  readonly timeoutPath?: CompiledPath;
}

const MAX_TIMEOUT = 99999999;
const TIMED_OUT = Symbol("timed out");

export const taskState: StateType<TaskState> = {
  fields: [],
  compile(raw, base, ctx) {
    const { problems, where, tools } = ctx;
    if (typeof raw.Resource !== "string" || raw.Resource === "") problems.push(`${where}/Resource must be a resource ARN string`);
    const resource = String(raw.Resource);
    let timeout: Template | number | undefined;
    if (typeof raw.TimeoutSeconds === "number") {
      if (!Number.isInteger(raw.TimeoutSeconds) || raw.TimeoutSeconds < 1 || raw.TimeoutSeconds > MAX_TIMEOUT) problems.push(`${where}/TimeoutSeconds must be an integer from 1 to ${MAX_TIMEOUT}`);
      timeout = raw.TimeoutSeconds;
    } else if (raw.TimeoutSeconds !== undefined) {
      if (base.language !== QueryLanguage.JSONata || typeof raw.TimeoutSeconds !== "string") problems.push(`${where}/TimeoutSeconds must be a positive integer${base.language === QueryLanguage.JSONata ? " or a JSONata expression" : ""}`);
      else timeout = tools.template(raw.TimeoutSeconds, "TimeoutSeconds", where);
    }
    if (raw.TimeoutSeconds !== undefined && raw.TimeoutSecondsPath !== undefined) problems.push(`${where}: use either TimeoutSeconds or TimeoutSecondsPath, not both`);
    return {
      ...base,
      resource,
      handler: findIntegration(resource),
      arguments: raw.Arguments === undefined ? undefined : tools.template(raw.Arguments, "Arguments", where),
      timeout,
      timeoutPath: tools.path(raw.TimeoutSecondsPath, `${where}/TimeoutSecondsPath`) ?? undefined,
    };
  },
  execute(visit, run, thread) {
    const { state } = visit;
    if (state.language === QueryLanguage.JSONata) {
      return runExecutionState(visit, run, thread, async () => {
        const states = statesVar(run, thread, visit.info, visit.input);
        const b = jsonataBindings(run, thread, states);
        const args = state.arguments ? await state.arguments.evaluate(b) : visit.input;
        run.probe?.stage("afterArguments", args);
        let timeoutSeconds: number | undefined;
        if (typeof state.timeout === "number") timeoutSeconds = state.timeout;
        else if (state.timeout) {
          timeoutSeconds = (await evaluateTyped(state.timeout, b, "number")) as number;
          if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > MAX_TIMEOUT) {
            throw new StatesError(
              StatesErrorName.QueryEvaluationError,
              `The JSONata expression '${state.timeout.source}' specified for the field 'TimeoutSeconds' returned an invalid value: ${timeoutSeconds}; expected an integer from 1 to ${MAX_TIMEOUT}.`,
              { location: "TimeoutSeconds" },
            );
          }
        }
        const result = await invokeTask(state, args, timeoutSeconds, run, thread);
        if (!state.assign && !state.output) return { output: result, next: state.next };
        states.result = result;
        const assigned = state.assign ? await evaluateTyped(state.assign, b, "object") : undefined;
        const output = state.output ? await state.output.evaluate(b) : result;
        commitAssign(thread, assigned, state.name);
        return { output, next: state.next };
      });
    }
    return runExecutionState(visit, run, thread, async () => {
      const input = effectiveInput(visit, run, thread);
      const roots = pathRoots(run, thread, visit.info, input);
      const params = state.parameters ? state.parameters.evaluate(roots) : input;
      run.probe?.stage("afterParameters", params);
      let timeoutSeconds = typeof state.timeout === "number" ? state.timeout : undefined;
      if (state.timeoutPath) {
        const v = selectPath(state.timeoutPath, roots);
        if (!Number.isInteger(v) || (v as number) < 1) {
          throw new StatesError(StatesErrorName.Runtime, `The TimeoutSecondsPath field refers to value ${JSON.stringify(v)} which is not a positive integer: ${state.timeoutPath.source}`);
        }
        timeoutSeconds = v as number;
      }
      const result = await invokeTask(state, params, timeoutSeconds, run, thread);
      return { output: finishJsonPath(visit, run, thread, result, { selector: true, resultPath: true }), next: state.next };
    });
  },
};

/** One call of the integration, with its history events and TimeoutSeconds. */
async function invokeTask(state: TaskState, parameters: unknown, timeoutSeconds: number | undefined, run: Run, thread: Thread): Promise<unknown> {
  const mock = run.mocks?.get(state.name);
  const handler = state.handler ?? (mock ? resourceIds(state.resource) : undefined);
  if (!handler) throw unsupportedResource(state.resource);
  const h = run.history;
  const legacy = handler.legacyLambda === true;
  const ids = { resource: handler.resource, resourceType: handler.resourceType };
  if (exceedsPayloadLimit(parameters)) throw terminalDataLimit(state.name, "input");
  if (h.on) {
    if (legacy) h.add(thread, "LambdaFunctionScheduled", { resource: handler.resource, input: parameters, timeoutInSeconds: timeoutSeconds });
    else h.add(thread, "TaskScheduled", { ...ids, region: run.region, parameters, timeoutInSeconds: timeoutSeconds });
    h.add(thread, legacy ? "LambdaFunctionStarted" : "TaskStarted", legacy ? undefined : ids);
  } else {
    h.add(thread, "");
    h.add(thread, "");
  }
  const ac = new AbortController();
  const onAbort = () => ac.abort(thread.signal.reason);
  thread.signal.addEventListener("abort", onAbort, { once: true });
  try {
    const call = mock
      ? Promise.resolve().then(() => answerMock(mock, run.mockCounts, state.name))
      : (handler as TaskHandler).invoke(parameters, { resourceArn: state.resource, integrations: run.integrations, signal: ac.signal });
    let result: unknown;
    if (timeoutSeconds === undefined) result = await call;
    else {
      const timer = run.clock.sleep(timeoutSeconds * 1000, ac.signal).then(
        () => TIMED_OUT,
        () => new Promise<never>(() => undefined),
      );
      result = await Promise.race([call, timer]);
      if (result === TIMED_OUT) {
        ac.abort();
        call.catch(() => undefined);
        throw new StatesError(StatesErrorName.Timeout, "");
      }
    }
    // Recorded on AWS: the label is the resource type ('lambda') for optimized integrations, the ARN for legacy ones.
    if (exceedsPayloadLimit(result)) throw resultTooLarge(legacy ? state.resource : handler.resourceType);
    run.probe?.stage("result", result);
    if (h.on) h.add(thread, legacy ? "LambdaFunctionSucceeded" : "TaskSucceeded", legacy ? { output: result } : { ...ids, output: result });
    else h.add(thread, "");
    return result;
  } catch (err) {
    if (thread.signal.aborted) throw new ThreadAborted();
    const e = err instanceof StatesError ? err : new StatesError(StatesErrorName.TaskFailed, err instanceof Error ? err.message : String(err), { cause: err });
    if (h.on) {
      const timeout = e.error === StatesErrorName.Timeout;
      const type = legacy ? (timeout ? "LambdaFunctionTimedOut" : "LambdaFunctionFailed") : timeout ? "TaskTimedOut" : "TaskFailed";
      h.add(thread, type, legacy ? { error: e.error, cause: e.causeText } : { ...ids, error: e.error, cause: e.causeText });
    } else h.add(thread, "");
    throw e;
  } finally {
    thread.signal.removeEventListener("abort", onAbort);
    if (timeoutSeconds !== undefined) ac.abort(NO_LONGER_NEEDED);
  }
}

/**
 * History ids of a resource no integration serves, for a mocked Task: `arn:aws:states:::sns:publish` →
 * `sns`/`publish` (`.sync`/`.waitForTaskToken` suffixes kept in `resource`, as AWS records them).
 */
function resourceIds(resource: string): Pick<TaskHandler, "resource" | "resourceType" | "legacyLambda"> {
  const service = /^arn:aws[a-z-]*:states:::([^:]+):(.+)$/.exec(resource);
  if (service) return { resourceType: service[1], resource: service[2] };
  return { resourceType: "unknown", resource, legacyLambda: /^arn:aws[a-z-]*:lambda:/.test(resource) };
}
