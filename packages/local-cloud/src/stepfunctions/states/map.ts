/**
 * Map: runs its ItemProcessor once per item (Items/ItemsPath), at most MaxConcurrency at once
 * (0 = unbounded; AWS runs at most 40 inline iterations at once). Each iteration gets its own variable scope
 * that reads the outer one. An iteration failure fails the Map with that error and aborts the other
 * iterations, unless the map tolerates it (ToleratedFailureCount/Percentage). AWS accepts these on INLINE maps
 * too (recorded: LocalStack's AWS-validated evaluate_jsonata/test_base_evaluate_expressions.py::test_base_map
 * [TOLERATED_FAILURE_*], 2025-07-22, an inline map with ToleratedFailure* runs); how an inline map applies them to
 * failing items was not recorded, so the distributed semantics are used for both.
 * DISTRIBUTED maps run in-process, without ItemReader/ItemBatcher/ResultWriter.
 */
import { QueryLanguage, type CompiledProgram, type CompiledStateBase } from "../definition/compiled";
import { StatesError, StatesErrorName, toStatesError } from "../errors";
import { evaluateTyped, jsonType, type Template } from "../jsonata/template";
import { selectPath } from "../jsonpath/dataflow";
import type { CompiledPath } from "../jsonpath/path";
import type { PayloadTemplate } from "../jsonpath/payload";
import { jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import { innerScope, type Run, type Thread } from "../runtime/context";
import { childController, runPool } from "../runtime/concurrency";
import { runExecutionState } from "../runtime/execution-state";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import { ThreadAborted } from "../runtime/retry";
import type { StateType, Visit } from "./types";

/** AWS runs at most 40 inline Map iterations at once. */
const INLINE_MAP_CONCURRENCY = 40;
const DISTRIBUTED_MAP_CONCURRENCY = 10000;

type NumberSource = number | Template | CompiledPath | undefined;

interface MapState extends CompiledStateBase {
  readonly processor?: CompiledProgram;
  readonly distributed: boolean;
  readonly items?: Template;
  readonly itemsPath?: CompiledPath | null;
  readonly itemSelector?: Template;
  readonly itemSelectorPath?: PayloadTemplate;
  readonly maxConcurrency: NumberSource;
  readonly toleratedCount: NumberSource;
  readonly toleratedPercentage: NumberSource;
}

export const mapState: StateType<MapState> = {
  fields: [],
  compile(raw, base, ctx) {
    const { problems, where, tools } = ctx;
    const jsonata = base.language === QueryLanguage.JSONata;
    if (raw.ItemProcessor !== undefined && raw.Iterator !== undefined) problems.push(`${where}: use either ItemProcessor or Iterator, not both`);
    const procRaw = (raw.ItemProcessor ?? raw.Iterator) as Record<string, unknown> | undefined;
    if (!procRaw) problems.push(`${where}/ItemProcessor is required`);
    const config = (procRaw?.ProcessorConfig ?? {}) as Record<string, unknown>;
    const mode = config.Mode ?? "INLINE";
    if (mode !== "INLINE" && mode !== "DISTRIBUTED") problems.push(`${where}/ItemProcessor/ProcessorConfig/Mode must be INLINE or DISTRIBUTED`);
    const distributed = mode === "DISTRIBUTED";
    for (const f of ["ItemReader", "ItemBatcher", "ResultWriter"]) {
      if (raw[f] !== undefined) problems.push(`${where}/${f}: not supported by the local interpreter (distributed maps run in-process over Items only)`);
    }
    for (const f of ["Label"]) {
      if (raw[f] !== undefined && !distributed) problems.push(`${where}/${f}: the field '${f}' is only supported by a Map state in DISTRIBUTED mode`);
    }
    if (raw.ItemSelector !== undefined && raw.Parameters !== undefined) problems.push(`${where}: use either ItemSelector or Parameters, not both`);
    const processor = procRaw ? ctx.compileProgram({ StartAt: procRaw.StartAt, States: procRaw.States }, `${where}/${raw.ItemProcessor ? "ItemProcessor" : "Iterator"}`) : undefined;
    const num = (field: string, check: (n: number) => boolean, rule: string): NumberSource => {
      const v = raw[field];
      const pathField = `${field}Path`;
      if (typeof v === "number") {
        if (!check(v)) problems.push(`${where}/${field} must be ${rule}`);
        return v;
      }
      if (typeof v === "string" && jsonata) return tools.template(v, field, where);
      if (v !== undefined) problems.push(`${where}/${field} must be ${rule}${jsonata ? " or a JSONata expression" : ""}`);
      if (raw[pathField] !== undefined) return tools.path(raw[pathField], `${where}/${pathField}`) ?? undefined;
      return undefined;
    };
    return {
      ...base,
      processor,
      distributed,
      items: jsonata && raw.Items !== undefined ? tools.template(raw.Items, "Items", where) : undefined,
      itemsPath: jsonata ? undefined : tools.path(raw.ItemsPath, `${where}/ItemsPath`),
      itemSelector: jsonata && raw.ItemSelector !== undefined ? tools.template(raw.ItemSelector, "ItemSelector", where) : undefined,
      itemSelectorPath: jsonata ? undefined : tools.payload(raw.ItemSelector ?? raw.Parameters, `${where}/ItemSelector`),
      maxConcurrency: num("MaxConcurrency", (n) => Number.isInteger(n) && n >= 0, "a non-negative integer"),
      toleratedCount: num("ToleratedFailureCount", (n) => Number.isInteger(n) && n >= 0, "a non-negative integer"),
      toleratedPercentage: num("ToleratedFailurePercentage", (n) => n >= 0 && n <= 100, "a number from 0 to 100"),
    };
  },
  execute(visit, run, thread) {
    return runExecutionState(visit, run, thread, () => runMap(visit, run, thread));
  },
};

async function readNumber(src: NumberSource, field: string, visit: Visit<MapState>, run: Run, thread: Thread, input: unknown, valid: (n: number) => boolean, rule: string): Promise<number | undefined> {
  if (src === undefined || typeof src === "number") return src;
  if ("evaluate" in src) {
    const v = (await evaluateTyped(src, jsonataBindings(run, thread, statesVar(run, thread, visit.info, input)), "number")) as number;
    if (!valid(v)) throw new StatesError(StatesErrorName.QueryEvaluationError, `The JSONata expression '${src.source}' specified for the field '${field}' returned an invalid value: ${v}; it must be ${rule}.`, { location: field });
    return v;
  }
  const v = selectPath(src, pathRoots(run, thread, visit.info, input));
  if (typeof v !== "number" || !valid(v)) {
    throw new StatesError(StatesErrorName.Runtime, `The ${field}Path field refers to value "${JSON.stringify(v)}" which is not ${rule}: ${src.source}`);
  }
  return v;
}

/** Whether `failures` failed iterations out of `total` stay within ToleratedFailureCount/Percentage (both, when set). */
function withinTolerance(failures: number, total: number, count: number | undefined, percentage: number | undefined): boolean {
  return (count === undefined || failures <= count) && (percentage === undefined || (failures * 100) / total <= percentage);
}

async function runMap(visit: Visit<MapState>, run: Run, thread: Thread) {
  const { state } = visit;
  const jsonata = state.language === QueryLanguage.JSONata;
  const h = run.history;
  const input = jsonata ? visit.input : effectiveInput(visit, run, thread);
  let items: unknown;
  if (jsonata) {
    items = state.items ? await evaluateTyped(state.items, jsonataBindings(run, thread, statesVar(run, thread, visit.info, input)), "array") : input;
    if (!Array.isArray(items)) throw new StatesError(StatesErrorName.QueryEvaluationError, `The Map state input must be an array but was '${jsonType(items)}' for value: ${JSON.stringify(items)}`, { location: "Items" });
  } else {
    items = state.itemsPath === undefined ? input : selectPath(state.itemsPath, pathRoots(run, thread, visit.info, input));
    if (!Array.isArray(items)) {
      // Recorded on AWS (LocalStack snapshot test_state_context_object › test_state_map_context_object, 2025-12-03):
      // the path as it reads from its root, `$$.Execution.Input` → "$.Execution.Input".
      const path = state.itemsPath ? state.itemsPath.source.replace(/^\$\$/, "$") : "$";
      throw new StatesError(StatesErrorName.Runtime, `Reference path "${path}" must point to array.`);
    }
    run.probe?.stage("afterItemsPath", items);
  }
  const list = items as unknown[];
  const isInt = (n: number) => Number.isInteger(n) && n >= 0;
  const maxConcurrency = await readNumber(state.maxConcurrency, "MaxConcurrency", visit, run, thread, input, isInt, "a non-negative integer");
  const toleratedCount = await readNumber(state.toleratedCount, "ToleratedFailureCount", visit, run, thread, input, isInt, "a valid integer");
  const toleratedPercentage = await readNumber(state.toleratedPercentage, "ToleratedFailurePercentage", visit, run, thread, input, (n) => n >= 0 && n <= 100, "between 0 and 100");
  const cap = state.distributed ? DISTRIBUTED_MAP_CONCURRENCY : INLINE_MAP_CONCURRENCY;
  const limit = maxConcurrency ? Math.min(maxConcurrency, cap) : cap;
  const tolerating = toleratedCount !== undefined || toleratedPercentage !== undefined;
  const tolerated = (failures: number) => tolerating && withinTolerance(failures, list.length, toleratedCount, toleratedPercentage);

  // ItemSelector (or Parameters) of one item, with $states.context.Map.Item bound.
  const selectItem = async (index: number, signal: AbortSignal): Promise<unknown> => {
    const item = list[index];
    const selectorThread: Thread = { vars: thread.vars, lastEventId: 0, signal, mapItem: { Index: index, Value: item } };
    if (state.itemSelector) return state.itemSelector.evaluate(jsonataBindings(run, selectorThread, statesVar(run, selectorThread, visit.info, input)));
    if (state.itemSelectorPath) return state.itemSelectorPath.evaluate(pathRoots(run, selectorThread, visit.info, input));
    return item;
  };

  if (run.probe) {
    run.probe.stage("maxConcurrency", maxConcurrency ?? 0);
    if (toleratedCount !== undefined) run.probe.stage("toleratedFailureCount", toleratedCount);
    if (toleratedPercentage !== undefined) run.probe.stage("toleratedFailurePercentage", toleratedPercentage);
    if (state.itemSelector || state.itemSelectorPath) run.probe.stage("afterItemSelector", await Promise.all(list.map((_, i) => selectItem(i, thread.signal))));
  }
  // TestState answers a Map from its mock; the iterations never run.
  if (run.probe?.mocked) return finishMap(visit, run, thread, run.probe.mocked({ tolerates: tolerating ? tolerated : undefined }));

  const startedId = h.add(thread, "MapStateStarted", h.on ? { length: list.length } : undefined);
  const results = new Array<unknown>(list.length);
  const { controller, dispose } = childController(thread.signal);
  let failure: StatesError | undefined;
  let failures = 0;
  let lastId = startedId;

  const iteration = async (index: number) => {
    const it: Thread = { vars: innerScope(thread.vars), lastEventId: startedId, signal: controller.signal };
    h.add(it, "MapIterationStarted", h.on ? { name: state.name, index } : undefined);
    try {
      const itemInput = await selectItem(index, controller.signal);
      results[index] = await run.runProgram(state.processor as CompiledProgram, itemInput, it);
      h.add(it, "MapIterationSucceeded", h.on ? { name: state.name, index } : undefined);
    } catch (e) {
      if (e instanceof ThreadAborted || controller.signal.aborted) {
        h.add(it, "MapIterationAborted", h.on ? { name: state.name, index } : undefined);
      } else {
        const err = toStatesError(e);
        h.add(it, "MapIterationFailed", h.on ? { name: state.name, index } : undefined);
        failures++;
        // A terminal error (e.g. an output over the payload quota) is never tolerated.
        if (!err.terminal && tolerated(failures)) results[index] = { Error: err.error, Cause: err.causeText };
        else if (!failure) {
          failure = tolerating && !err.terminal
            ? new StatesError(StatesErrorName.ExceedToleratedFailureThreshold, "The specified tolerated failure threshold was exceeded", { cause: err })
            : err;
          controller.abort();
        }
      }
    }
    if (it.lastEventId > lastId) lastId = it.lastEventId;
  };
  try {
    await runPool(list.length, limit, iteration, () => failure !== undefined || controller.signal.aborted);
  } finally {
    dispose();
  }
  thread.lastEventId = lastId;
  if (thread.signal.aborted) throw new ThreadAborted();
  if (failure) {
    h.add(thread, "MapStateFailed");
    throw failure;
  }
  h.add(thread, "MapStateSucceeded");
  return finishMap(visit, run, thread, results);
}

async function finishMap(visit: Visit<MapState>, run: Run, thread: Thread, results: unknown) {
  const output = visit.state.language === QueryLanguage.JSONata
    ? await finishJsonata(visit, run, thread, results, results)
    : finishJsonPath(visit, run, thread, results, { selector: true, resultPath: true });
  return { output, next: visit.state.next };
}
