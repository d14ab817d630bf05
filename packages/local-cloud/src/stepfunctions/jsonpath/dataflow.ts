/** InputPath, OutputPath and ResultPath of JSONPath states. */
import { StatesError, StatesErrorName } from "../errors";
import { bracketForm, evaluatePath, type CompiledPath } from "./path";
import type { PathRoots } from "./intrinsics";

function rootOf(path: CompiledPath, roots: PathRoots): unknown {
  if (path.root.kind === "context") return roots.context;
  if (path.root.kind === "variable") {
    if (!(path.root.name in roots.vars)) throw new StatesError(StatesErrorName.Runtime, `The variable '$${path.root.name}' is not defined.`);
    return roots.vars[path.root.name];
  }
  return roots.input;
}

/** Selects with a path that must match (InputPath, OutputPath, ItemsPath, *Path fields). `null` selects `{}`. */
export function selectPath(path: CompiledPath | null | undefined, roots: PathRoots): unknown {
  if (path === undefined) return roots.input;
  if (path === null) return {};
  const r = evaluatePath(path, rootOf(path, roots));
  if (!r.found) {
    throw new StatesError(StatesErrorName.Runtime, `Invalid path '${path.source}' : No results for path: ${bracketForm(path)}`);
  }
  return r.value;
}

/**
 * Places `result` into `input` at a ResultPath (undefined = `$`: the result replaces the input; null = the
 * input passes through). Objects on the path are copied, never mutated.
 */
export function applyResultPath(resultPath: CompiledPath | null | undefined, input: unknown, result: unknown): unknown {
  if (resultPath === undefined) return result;
  if (resultPath === null) return input;
  const steps = resultPath.steps;
  if (steps.length === 0) return result;
  const set = (node: unknown, i: number): unknown => {
    const step = steps[i];
    if (step.t !== "name") {
      throw new StatesError(StatesErrorName.ResultPathMatchFailure, `Unable to apply ResultPath '${resultPath.source}': only field names are supported in a ResultPath.`);
    }
    if (node !== undefined && (node === null || typeof node !== "object" || Array.isArray(node))) {
      throw new StatesError(
        StatesErrorName.ResultPathMatchFailure,
        `Unable to apply ReturnValue '${resultPath.source}' to input '${JSON.stringify(input)}': the value at '${step.name}' parent is not a JSON object.`,
      );
    }
    const copy: Record<string, unknown> = node === undefined ? {} : { ...(node as Record<string, unknown>) };
    copy[step.name] = i === steps.length - 1 ? result : set(copy[step.name], i + 1);
    return copy;
  };
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new StatesError(
      StatesErrorName.ResultPathMatchFailure,
      `Unable to apply ResultPath '${resultPath.source}' to input '${JSON.stringify(input)}': the input is not a JSON object.`,
    );
  }
  return set(input, 0);
}
