/** Fail: ends its scope with an error (Error/Cause, ErrorPath/CausePath, or JSONata expressions). */
import { QueryLanguage, type CompiledStateBase } from "../definition/compiled";
import { StatesError, StatesErrorName } from "../errors";
import type { Template } from "../jsonata/template";
import { jsonataBindings, pathRoots, statesVar } from "../runtime/bindings";
import { evaluateIntrinsic, isIntrinsic, parseIntrinsic, type IntrinsicCall } from "../jsonpath/intrinsics";
import { selectPath } from "../jsonpath/dataflow";
import { compilePath, type CompiledPath } from "../jsonpath/path";
import type { StateType } from "./types";

type Source = { kind: "template"; t: Template } | { kind: "path"; p: CompiledPath } | { kind: "fn"; c: IntrinsicCall };

interface FailState extends CompiledStateBase {
  readonly error?: Source;
  readonly cause?: Source;
}

export const failState: StateType<FailState> = {
  fields: [],
  compile(raw, base, ctx) {
    const src = (field: "Error" | "Cause"): Source | undefined => {
      const pathField = `${field}Path`;
      const value = raw[field];
      if (value !== undefined && raw[pathField] !== undefined) ctx.problems.push(`${ctx.where}: use either ${field} or ${pathField}, not both`);
      if (value !== undefined) {
        if (typeof value !== "string") ctx.problems.push(`${ctx.where}/${field} must be a string`);
        const t = ctx.tools.template(value, field, ctx.where);
        return t ? { kind: "template", t } : undefined;
      }
      const p = raw[pathField];
      if (typeof p === "string") {
        try {
          return isIntrinsic(p) ? { kind: "fn", c: parseIntrinsic(p) } : { kind: "path", p: compilePath(p) };
        } catch (e) {
          ctx.problems.push(`${ctx.where}/${pathField}: ${(e as Error).message}`);
        }
      }
      return undefined;
    };
    return { ...base, error: src("Error"), cause: src("Cause") };
  },
  async execute(visit, run, thread) {
    const { state } = visit;
    const read = async (s: Source | undefined, field: string): Promise<string | undefined> => {
      if (!s) return undefined;
      let v: unknown;
      if (s.kind === "template") {
        if (s.t.constant) return (await s.t.evaluate({})) as string;
        v = await s.t.evaluate(jsonataBindings(run, thread, statesVar(run, thread, visit.info, visit.input)));
      } else {
        const roots = pathRoots(run, thread, visit.info, visit.input);
        v = s.kind === "path" ? selectPath(s.p, roots) : evaluateIntrinsic(s.c, roots);
      }
      if (typeof v !== "string") {
        const name = state.language === QueryLanguage.JSONata ? StatesErrorName.QueryEvaluationError : StatesErrorName.Runtime;
        throw new StatesError(name, `The value of the field '${field}' must be a string, but was '${JSON.stringify(v)}'.`, { location: field });
      }
      return v;
    };
    const error = await read(state.error, "Error");
    const cause = await read(state.cause, "Cause");
    throw new FailStateError(error, cause);
  },
};

/**
 * A Fail state's error: any name (even States.*), never decorated. Error and Cause may be absent: AWS then
 * reports no `error`/`cause` field at all (recorded, see `errorFields`), not empty strings.
 */
class FailStateError extends StatesError {
  readonly hasError: boolean;
  readonly hasCause: boolean;
  constructor(error: string | undefined, cause: string | undefined) {
    super(error ?? "", cause ?? "");
    this.name = "FailStateError";
    this.hasError = error !== undefined;
    this.hasCause = cause !== undefined;
  }
}
