/**
 * Validates and compiles a definition. Every problem is collected with its JSON location and reported at once
 * (DefinitionError). Expressions and paths are compiled here, so executions only evaluate.
 */
import { DefinitionError, StatesErrorName } from "../errors";
import type { CompileContext, StateTable } from "../states/types";
import { QueryLanguage, type Catcher, type CompiledMachine, type CompiledProgram, type CompiledStateBase, type Retrier } from "./compiled";
import { Compiler } from "./compiler";
import { JSONATA_FIELDS, JSONATA_ONLY, JSONPATH_FIELDS, JSONPATH_ONLY } from "./fields";

const COMMON = new Set(["Type", "Comment", "QueryLanguage"]);
const NEEDS_FLOW = new Set(["Pass", "Task", "Map", "Parallel", "Wait"]);
/** A variable name Assign accepts (and TestState's `variables`); `states` is reserved. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function assignNames(assign: unknown): string[] {
  if (!isObject(assign)) return [];
  return Object.keys(assign).map((k) => (k.endsWith(".$") ? k.slice(0, -2) : k));
}

/** Names assigned by the states of one program (not inside nested programs). */
function namesAssignedIn(states: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  for (const [stateName, raw] of Object.entries(states)) {
    if (!isObject(raw)) continue;
    const add = (a: unknown) => assignNames(a).forEach((n) => names.set(n, stateName));
    add(raw.Assign);
    if (Array.isArray(raw.Catch)) raw.Catch.forEach((c) => isObject(c) && add(c.Assign));
    if (Array.isArray(raw.Choices)) raw.Choices.forEach((c) => isObject(c) && add(c.Assign));
  }
  return names;
}

function compileRetry(raw: unknown, where: string, problems: string[]): Retrier[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    problems.push(`${where} must be an array of retriers`);
    return undefined;
  }
  return raw.map((r, i) => {
    const at = `${where}/${i}`;
    const x = isObject(r) ? r : {};
    checkErrorEquals(x.ErrorEquals, at, i === raw.length - 1, problems);
    const num = (name: string, def: number | undefined, check: (n: number) => boolean, rule: string) => {
      const v = x[name];
      if (v === undefined) return def;
      if (typeof v !== "number" || !check(v)) problems.push(`${at}/${name} must be ${rule}`);
      return typeof v === "number" ? v : def;
    };
    const jitter = x.JitterStrategy ?? "NONE";
    if (jitter !== "FULL" && jitter !== "NONE") problems.push(`${at}/JitterStrategy must be FULL or NONE`);
    return {
      errorEquals: Array.isArray(x.ErrorEquals) ? (x.ErrorEquals as string[]) : [],
      intervalSeconds: num("IntervalSeconds", 1, (n) => Number.isInteger(n) && n >= 1 && n <= 99999999, "an integer from 1 to 99999999") as number,
      maxAttempts: num("MaxAttempts", 3, (n) => Number.isInteger(n) && n >= 0 && n <= 99999999, "an integer from 0 to 99999999") as number,
      backoffRate: num("BackoffRate", 2, (n) => n >= 1, "a number >= 1.0") as number,
      maxDelaySeconds: num("MaxDelaySeconds", undefined, (n) => Number.isInteger(n) && n >= 1 && n < 31622401, "an integer from 1 to 31622400"),
      jitter: jitter === "FULL" ? "FULL" : "NONE",
    };
  });
}

function checkErrorEquals(v: unknown, where: string, last: boolean, problems: string[]): void {
  if (!Array.isArray(v) || v.length === 0 || !v.every((e) => typeof e === "string")) {
    problems.push(`${where}/ErrorEquals must be a non-empty array of error names`);
    return;
  }
  if (v.includes(StatesErrorName.All)) {
    if (v.length > 1) problems.push(`${where}/ErrorEquals: States.ALL must appear alone in ErrorEquals`);
    if (!last) problems.push(`${where}/ErrorEquals: States.ALL must appear in the last element of the array`);
  }
}

/**
 * Compiles a definition (object or JSON text) with the given state types (the caller passes the table, so the
 * states, which compile nested programs through their context, never import this module back). Throws
 * DefinitionError listing every problem.
 */
export function compileDefinition(definition: unknown, types: StateTable): CompiledMachine {
  let raw = definition;
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw);
    } catch (e) {
      throw new DefinitionError([`the definition is not valid JSON: ${(e as Error).message}`]);
    }
  }
  if (!isObject(raw)) throw new DefinitionError(["the definition must be a JSON object with StartAt and States"]);
  const problems: string[] = [];
  const ql = raw.QueryLanguage ?? QueryLanguage.JSONPath;
  if (ql !== QueryLanguage.JSONata && ql !== QueryLanguage.JSONPath) problems.push(`/QueryLanguage must be "JSONata" or "JSONPath", got ${JSON.stringify(ql)}`);
  const language = ql === QueryLanguage.JSONata ? QueryLanguage.JSONata : QueryLanguage.JSONPath;
  let timeoutSeconds: number | undefined;
  if (raw.TimeoutSeconds !== undefined) {
    if (!Number.isInteger(raw.TimeoutSeconds) || (raw.TimeoutSeconds as number) <= 0) problems.push("/TimeoutSeconds must be a positive integer");
    else timeoutSeconds = raw.TimeoutSeconds as number;
  }
  if (raw.Version !== undefined && raw.Version !== "1.0") problems.push(`/Version must be "1.0"`);
  for (const key of Object.keys(raw)) {
    if (!["StartAt", "States", "Comment", "QueryLanguage", "TimeoutSeconds", "Version"].includes(key)) problems.push(`/${key}: unknown top-level field`);
  }
  const program = compileProgram(types, raw, "", language, new Map(), new Compiler(problems));
  if (problems.length > 0) throw new DefinitionError(problems);
  return { program: program as CompiledProgram, timeoutSeconds, language };
}

function compileProgram(types: StateTable, raw: unknown, where: string, language: QueryLanguage, outer: Map<string, string>, c: Compiler): CompiledProgram | undefined {
  const problems = c.problems;
  if (!isObject(raw)) {
    problems.push(`${where || "/"} must be an object with StartAt and States`);
    return undefined;
  }
  if (typeof raw.StartAt !== "string") problems.push(`${where}/StartAt must be a state name`);
  if (!isObject(raw.States) || Object.keys(raw.States).length === 0) {
    problems.push(`${where}/States must be an object with at least one state`);
    return undefined;
  }
  const statesRaw = raw.States;
  if (typeof raw.StartAt === "string" && !(raw.StartAt in statesRaw)) problems.push(`${where}/StartAt: the state '${raw.StartAt}' does not exist`);

  const own = namesAssignedIn(statesRaw);
  for (const [name, stateName] of own) {
    if (outer.has(name)) {
      problems.push(
        `${where}/States/${stateName}/Assign: the variable '${name}' is assigned in an outer scope (state '${outer.get(name)}'); ` +
          "a Map or Parallel state's inner states can read outer variables but cannot assign them",
      );
    }
  }
  const inner = new Map([...outer, ...own]);
  const states = new Map<string, CompiledStateBase>();
  for (const [name, s] of Object.entries(statesRaw)) {
    const at = `${where}/States/${name}`;
    if (name.length > 80) problems.push(`${at}: state names must be at most 80 characters`);
    const compiled = compileState(types, name, s, at, language, inner, c);
    if (compiled) states.set(name, compiled);
  }
  // Every transition must reach a state of this program.
  const checkTarget = (target: string | undefined, at: string) => {
    if (target !== undefined && !(target in statesRaw)) problems.push(`${at}: the state '${target}' does not exist in this scope`);
  };
  for (const [name, s] of Object.entries(statesRaw)) {
    if (!isObject(s)) continue;
    const at = `${where}/States/${name}`;
    if (typeof s.Next === "string") checkTarget(s.Next, `${at}/Next`);
    if (typeof s.Default === "string") checkTarget(s.Default, `${at}/Default`);
    if (Array.isArray(s.Catch)) s.Catch.forEach((k, i) => isObject(k) && typeof k.Next === "string" && checkTarget(k.Next, `${at}/Catch/${i}/Next`));
    if (Array.isArray(s.Choices)) s.Choices.forEach((k, i) => isObject(k) && typeof k.Next === "string" && checkTarget(k.Next, `${at}/Choices/${i}/Next`));
  }
  return { startAt: String(raw.StartAt), states };
}

function compileState(types: StateTable, name: string, raw: unknown, at: string, machineLanguage: QueryLanguage, scope: Map<string, string>, c: Compiler): CompiledStateBase | undefined {
  const problems = c.problems;
  if (!isObject(raw)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  const type = raw.Type;
  if (typeof type !== "string" || !Object.hasOwn(types, type)) {
    problems.push(`${at}/Type must be one of ${Object.keys(types).join(", ")}, got ${JSON.stringify(type)}`);
    return undefined;
  }
  let language = machineLanguage;
  if (raw.QueryLanguage !== undefined) {
    if (raw.QueryLanguage !== QueryLanguage.JSONata && raw.QueryLanguage !== QueryLanguage.JSONPath) {
      problems.push(`${at}/QueryLanguage must be "JSONata" or "JSONPath"`);
    } else if (machineLanguage === QueryLanguage.JSONata && raw.QueryLanguage === QueryLanguage.JSONPath) {
      problems.push(`${at}/QueryLanguage: a state cannot use JSONPath when the state machine's QueryLanguage is JSONata`);
    } else language = raw.QueryLanguage;
  }
  const jsonata = language === QueryLanguage.JSONata;
  const allowed = new Set([...COMMON, ...(jsonata ? JSONATA_FIELDS : JSONPATH_FIELDS)[type]]);
  for (const key of Object.keys(raw)) {
    if (allowed.has(key)) continue;
    if (jsonata && key in JSONPATH_ONLY) problems.push(`${at}/${key}: the field '${key}' is not supported in JSONata states; ${JSONPATH_ONLY[key]}`);
    else if (!jsonata && key in JSONATA_ONLY) problems.push(`${at}/${key}: the field '${key}' is only supported in JSONata states; ${JSONATA_ONLY[key]}`);
    else problems.push(`${at}/${key}: the field '${key}' is not supported in a ${type} state`);
  }
  if (NEEDS_FLOW.has(type)) {
    const hasNext = raw.Next !== undefined;
    const hasEnd = raw.End === true;
    if (hasNext === hasEnd) problems.push(`${at}: a ${type} state must have exactly one of "Next" or "End": true`);
    if (hasNext && typeof raw.Next !== "string") problems.push(`${at}/Next must be a state name`);
    if (raw.End !== undefined && raw.End !== true) problems.push(`${at}/End must be true when present`);
  }
  for (const key of ["Retry", "Catch"]) if (raw[key] !== undefined && !["Task", "Map", "Parallel"].includes(type)) problems.push(`${at}/${key} is only supported in Task, Map and Parallel states`);

  if (raw.Assign !== undefined) {
    if (!isObject(raw.Assign)) problems.push(`${at}/Assign must be a JSON object`);
    else for (const n of assignNames(raw.Assign)) if (!VARIABLE_NAME.test(n) || n === "states") problems.push(`${at}/Assign: '${n}' is not a valid variable name`);
  }
  const assign = jsonata && isObject(raw.Assign) ? c.template(raw.Assign, "Assign", at) : undefined;
  const assignPath = !jsonata && isObject(raw.Assign) ? c.payload(raw.Assign, `${at}/Assign`, StatesErrorName.Runtime) : undefined;
  const base: CompiledStateBase = {
    name,
    type,
    language,
    next: typeof raw.Next === "string" ? raw.Next : undefined,
    assign,
    assignPath,
    output: jsonata && raw.Output !== undefined ? c.template(raw.Output, "Output", at) : undefined,
    inputPath: jsonata ? undefined : c.path(raw.InputPath, `${at}/InputPath`, true),
    outputPath: jsonata ? undefined : c.path(raw.OutputPath, `${at}/OutputPath`, true),
    resultPath: jsonata ? undefined : c.path(raw.ResultPath, `${at}/ResultPath`, true),
    parameters: jsonata ? undefined : c.payload(raw.Parameters, `${at}/Parameters`, type === "Pass" ? StatesErrorName.Runtime : StatesErrorName.ParameterPathFailure),
    resultSelector: jsonata ? undefined : c.payload(raw.ResultSelector, `${at}/ResultSelector`),
    retry: compileRetry(raw.Retry, `${at}/Retry`, problems),
    catch: compileCatch(raw.Catch, `${at}/Catch`, jsonata, c),
  };
  const ctx: CompileContext = {
    problems,
    where: at,
    language,
    tools: c,
    compileProgram: (p, w) => compileProgram(types, p, w, language, scope, c),
  };
  return types[type].compile(raw, base, ctx);
}

function compileCatch(raw: unknown, where: string, jsonata: boolean, c: Compiler): Catcher[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    c.problems.push(`${where} must be an array of catchers`);
    return undefined;
  }
  return raw.map((k, i) => {
    const at = `${where}/${i}`;
    const x = isObject(k) ? k : {};
    checkErrorEquals(x.ErrorEquals, at, i === raw.length - 1, c.problems);
    if (typeof x.Next !== "string") c.problems.push(`${at}/Next must be a state name`);
    for (const key of Object.keys(x)) {
      const ok = ["ErrorEquals", "Next", "Comment", "Assign", ...(jsonata ? ["Output"] : ["ResultPath"])].includes(key);
      if (!ok) c.problems.push(`${at}/${key}: the field '${key}' is not supported in a ${jsonata ? "JSONata" : "JSONPath"} Catcher`);
    }
    return {
      errorEquals: Array.isArray(x.ErrorEquals) ? (x.ErrorEquals as string[]) : [],
      next: String(x.Next),
      assign: jsonata && x.Assign !== undefined ? c.template(x.Assign, `Catch/${i}/Assign`, at) : undefined,
      output: jsonata && x.Output !== undefined ? c.template(x.Output, `Catch/${i}/Output`, at) : undefined,
      resultPath: jsonata ? undefined : c.path(x.ResultPath, `${at}/ResultPath`, true),
      assignPath: !jsonata && x.Assign !== undefined ? c.payload(x.Assign, `${at}/Assign`, StatesErrorName.Runtime) : undefined,
    };
  });
}
