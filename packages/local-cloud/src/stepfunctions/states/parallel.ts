/**
 * Parallel: runs every branch on the same input, each in its own variable scope that reads the outer one.
 * The output is the array of branch outputs; a failing branch fails the state with the branch's error and
 * aborts the other branches.
 */
import { QueryLanguage, type CompiledProgram, type CompiledStateBase } from "../definition/compiled";
import { toStatesError, type StatesError } from "../errors";
import type { Template } from "../jsonata/template";
import { jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import { innerScope, type Thread } from "../runtime/context";
import { childController } from "../runtime/concurrency";
import { runExecutionState } from "../runtime/execution-state";
import { effectiveInput, finishJsonata, finishJsonPath } from "../runtime/io";
import { ThreadAborted } from "../runtime/retry";
import type { StateType } from "./types";

interface ParallelState extends CompiledStateBase {
  readonly branches: readonly CompiledProgram[];
  readonly arguments?: Template;
}

export const parallelState: StateType<ParallelState> = {
  fields: [],
  compile(raw, base, ctx) {
    if (!Array.isArray(raw.Branches) || raw.Branches.length === 0) {
      ctx.problems.push(`${ctx.where}/Branches must be a non-empty array of branches`);
      return { ...base, branches: [] };
    }
    const branches = (raw.Branches as unknown[])
      .map((b, i) => ctx.compileProgram(b, `${ctx.where}/Branches/${i}`))
      .filter((b): b is CompiledProgram => b !== undefined);
    return {
      ...base,
      branches,
      arguments: raw.Arguments === undefined ? undefined : ctx.tools.template(raw.Arguments, "Arguments", ctx.where),
    };
  },
  execute(visit, run, thread) {
    const { state } = visit;
    const jsonata = state.language === QueryLanguage.JSONata;
    const finish = async (results: unknown) => {
      const output = jsonata
        ? await finishJsonata(visit, run, thread, results, results)
        : finishJsonPath(visit, run, thread, results, { selector: true, resultPath: true });
      return { output, next: state.next };
    };
    return runExecutionState(visit, run, thread, async () => {
      const h = run.history;
      let branchInput: unknown;
      if (jsonata) {
        branchInput = state.arguments ? await state.arguments.evaluate(jsonataBindings(run, thread, statesVar(run, thread, visit.info, visit.input))) : visit.input;
      } else {
        const input = effectiveInput(visit, run, thread);
        branchInput = state.parameters ? state.parameters.evaluate(pathRoots(run, thread, visit.info, input)) : input;
      }
      // TestState answers a Parallel from its mock; the branches never run.
      if (run.probe?.mocked) return finish(run.probe.mocked({}));
      const startedId = h.add(thread, "ParallelStateStarted");
      const { controller, dispose } = childController(thread.signal);
      let failure: StatesError | undefined;
      let lastId = startedId;
      const results = await Promise.all(
        state.branches.map(async (branch) => {
          const t: Thread = { vars: innerScope(thread.vars), lastEventId: startedId, signal: controller.signal };
          try {
            return await run.runProgram(branch, branchInput, t);
          } catch (e) {
            if (!(e instanceof ThreadAborted) && !controller.signal.aborted && !failure) {
              failure = toStatesError(e);
              controller.abort();
            }
            return undefined;
          } finally {
            if (t.lastEventId > lastId) lastId = t.lastEventId;
          }
        }),
      ).finally(dispose);
      thread.lastEventId = lastId;
      if (thread.signal.aborted) throw new ThreadAborted();
      if (failure) {
        h.add(thread, "ParallelStateFailed");
        throw failure;
      }
      h.add(thread, "ParallelStateSucceeded");
      return finish(results);
    });
  },
};
