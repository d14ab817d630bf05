/**
 * The Step Functions Local mock configuration file (AWS, "Configuration file for mocked service integrations in
 * Step Functions"): `StateMachines.<machine>.TestCases.<test case>.<state name>` names a mocked response, and
 * `MockedResponses.<name>` maps zero-based invocation numbers, or inclusive ranges such as `"1-3"`, to exactly
 * one of `Return` (the task's result, used as given) or `Throw` (`{ Error, Cause }`).
 */
import { StepFunctionsError } from "../errors";

export class MockConfigError extends StepFunctionsError {
  constructor(message: string) {
    super(`Invalid mock configuration: ${message}`);
    this.name = "MockConfigError";
  }
}

/** One invocation's mocked answer. */
type MockedAnswer = { readonly kind: "return"; readonly value: unknown } | { readonly kind: "throw"; readonly error: string; readonly cause: string };

/** Answers by invocation number (0, 1, ...); past the last one the last answer repeats. */
export interface MockedResponse {
  readonly name: string;
  readonly answers: readonly MockedAnswer[];
}

/** The mocked Task states of one test case: state name → its responses. */
export type MockedStates = ReadonlyMap<string, MockedResponse>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Validates a parsed mock configuration and returns the mocked states of `testCase` for `stateMachine`.
 * `stateMachine` may be omitted when the file configures exactly one. Every problem names its JSON path.
 */
export function mockedStatesOf(config: unknown, testCase: string, stateMachine?: string): MockedStates {
  if (!isObject(config)) throw new MockConfigError("the file must hold a JSON object with StateMachines and MockedResponses");
  const machines = config.StateMachines;
  const responses = config.MockedResponses;
  if (!isObject(machines)) throw new MockConfigError("StateMachines must be an object: { \"<state machine name>\": { \"TestCases\": {...} } }");
  if (!isObject(responses)) throw new MockConfigError("MockedResponses must be an object: { \"<response name>\": { \"0\": { \"Return\": ... } } }");
  const names = Object.keys(machines);
  const machineName = stateMachine ?? (names.length === 1 ? names[0] : undefined);
  if (machineName === undefined) {
    throw new MockConfigError(`StateMachines has ${names.length} state machines (${names.join(", ") || "none"}); name the one to use`);
  }
  const machine = machines[machineName];
  if (!isObject(machine)) throw new MockConfigError(`StateMachines.${machineName} is missing (configured: ${names.join(", ") || "none"})`);
  if (!isObject(machine.TestCases)) throw new MockConfigError(`StateMachines.${machineName}.TestCases must be an object of test cases`);
  const cases = machine.TestCases;
  const states = cases[testCase];
  if (!isObject(states)) {
    throw new MockConfigError(`StateMachines.${machineName}.TestCases.${testCase} is missing (test cases: ${Object.keys(cases).join(", ") || "none"})`);
  }
  const mocked = new Map<string, MockedResponse>();
  for (const [state, responseName] of Object.entries(states)) {
    const where = `StateMachines.${machineName}.TestCases.${testCase}.${state}`;
    if (typeof responseName !== "string") throw new MockConfigError(`${where} must name a mocked response (a string)`);
    if (!(responseName in responses)) throw new MockConfigError(`${where} names '${responseName}', which MockedResponses does not define`);
    mocked.set(state, parseResponse(responseName, responses[responseName]));
  }
  return mocked;
}

function parseResponse(name: string, raw: unknown): MockedResponse {
  const where = `MockedResponses.${name}`;
  if (!isObject(raw) || Object.keys(raw).length === 0) {
    throw new MockConfigError(`${where} must map invocation numbers to answers, e.g. { "0": { "Return": {...} }, "1-2": { "Throw": {...} } }`);
  }
  const answers: MockedAnswer[] = [];
  const ranges = Object.entries(raw).map(([key, value]) => {
    const m = /^(\d+)(?:-(\d+))?$/.exec(key);
    if (!m) throw new MockConfigError(`${where}: key '${key}' must be an invocation number ("0") or an inclusive range ("1-3")`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new MockConfigError(`${where}: range '${key}' must go upwards ("${to}-${from}")`);
    return { key, from, to, answer: parseAnswer(`${where}.${key}`, value) };
  });
  ranges.sort((a, b) => a.from - b.from);
  for (const r of ranges) {
    if (r.from !== answers.length) {
      throw new MockConfigError(
        r.from < answers.length
          ? `${where}: key '${r.key}' overlaps an earlier key (invocation ${r.from} is answered twice)`
          : `${where}: invocation ${answers.length} has no answer; keys must cover 0, 1, 2, ... without gaps`,
      );
    }
    for (let i = r.from; i <= r.to; i += 1) answers.push(r.answer);
  }
  return { name, answers };
}

function parseAnswer(where: string, raw: unknown): MockedAnswer {
  if (!isObject(raw)) throw new MockConfigError(`${where} must be { "Return": <result> } or { "Throw": { "Error": "...", "Cause": "..." } }`);
  const hasReturn = "Return" in raw;
  const hasThrow = "Throw" in raw;
  if (hasReturn === hasThrow) throw new MockConfigError(`${where} must have exactly one of Return and Throw`);
  if (hasReturn) return { kind: "return", value: raw.Return };
  const thrown = raw.Throw;
  if (!isObject(thrown) || typeof thrown.Error !== "string" || thrown.Error === "") {
    throw new MockConfigError(`${where}.Throw must be { "Error": "<error name>", "Cause": "<text>" } with a non-empty Error`);
  }
  if (thrown.Cause !== undefined && typeof thrown.Cause !== "string") throw new MockConfigError(`${where}.Throw.Cause must be a string`);
  return { kind: "throw", error: thrown.Error, cause: (thrown.Cause as string | undefined) ?? "" };
}
