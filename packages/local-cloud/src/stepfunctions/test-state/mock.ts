/**
 * TestState's `mock` and the `stateConfiguration` members that shape it: which states take a mock (Task, Map and
 * Parallel; Map and Parallel need one), what a mocked result must look like, and what the mock answers. Checks and
 * messages in the order and words recorded on AWS (LocalStack's AWS-validated snapshots test_state_mock_validation,
 * test_test_state_mock_scenarios and test_state_configuration, 2025-11 to 2026-03).
 */
import { StatesError, StatesErrorName } from "../errors";
import type { MockedResponse } from "../mocks/config";
import type { StateUnderTest } from "./definition";
import { InvalidDefinition, ValidationException } from "./errors";
import { checkMockedResult } from "./result-shape";
import { FieldValidationMode, type TestStateInput } from "./types";

/** How the tested state is answered: a Task through the interpreter's mocked responses, a Map or Parallel whole. */
export interface MockPlan {
  readonly task?: MockedResponse;
  readonly whole?: (limits: { tolerates?: (failures: number) => boolean }) => unknown;
}

const MOCKABLE = new Set(["Task", "Map", "Parallel"]);
const NEEDS_MOCK = new Set(["Map", "Parallel"]);

function parseResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationException("Mocked result must be valid JSON");
  }
}

/** Every state name inside a Map's or Parallel's nested programs. */
function nestedStateNames(raw: Readonly<Record<string, unknown>>): Set<string> {
  const names = new Set<string>();
  const visit = (program: unknown): void => {
    const states = (program as { States?: unknown } | undefined)?.States;
    if (typeof states !== "object" || states === null) return;
    for (const [name, state] of Object.entries(states)) {
      names.add(name);
      const s = state as Record<string, unknown> | null;
      visit(s?.ItemProcessor ?? s?.Iterator);
      if (Array.isArray(s?.Branches)) s.Branches.forEach(visit);
    }
  };
  visit(raw.ItemProcessor ?? raw.Iterator);
  if (Array.isArray(raw.Branches)) raw.Branches.forEach(visit);
  return names;
}

export function mockPlan(request: TestStateInput, subject: StateUnderTest): MockPlan {
  const { mock, stateConfiguration: config = {} } = request;
  const failureCount = config.mapIterationFailureCount;
  if (failureCount !== undefined && !mock) throw new ValidationException("TestState does not support MapIterationFailureCount when a mock is not specified.");
  if (!mock) {
    if (NEEDS_MOCK.has(subject.type)) {
      throw new InvalidDefinition("TestState API does not support Map or Parallel states. Supported state types include: [Task, Wait, Pass, Succeed, Fail, Choice]");
    }
    return {};
  }
  if (!MOCKABLE.has(subject.type)) throw new ValidationException(`State type '${subject.type}' is not supported when a mock is specified`);
  if (request.revealSecrets) throw new ValidationException("TestState does not support RevealSecrets when a mock is specified.");
  const hasResult = mock.result !== undefined;
  const hasError = mock.errorOutput !== undefined;
  if (hasResult && hasError) throw new ValidationException("A test mock should have only one of the following fields: [result, errorOutput].");
  if (!hasResult && !hasError) throw new ValidationException("A test mock should have one of the following fields: [result, errorOutput].");

  let result: unknown;
  if (hasResult) {
    result = parseResult(mock.result as string);
    if (NEEDS_MOCK.has(subject.type) && !Array.isArray(result)) throw new ValidationException("Mocked result must be an array.");
    if (subject.type === "Parallel" && (result as unknown[]).length !== (subject.raw.Branches as unknown[]).length) {
      throw new ValidationException("Mocked result must contain the same number of items as number of Parallel branches.");
    }
    if (failureCount !== undefined && Array.isArray(result) && failureCount > result.length) {
      throw new ValidationException("Map iteration failure count must be less than or equal to the number of Map iterations");
    }
    if (subject.type === "Task") checkMockedResult(result, String(subject.raw.Resource), mock.fieldValidationMode ?? FieldValidationMode.Strict);
  }
  const error = mock.errorOutput?.error;
  if (hasError && (error === undefined || error === "")) {
    throw new ValidationException("mock.errorOutput.error is required when mock.errorOutput is specified: the error name the state raises (e.g. States.TaskFailed)");
  }
  const cause = mock.errorOutput?.cause ?? "";
  const caused = config.errorCausedByState;
  if (caused !== undefined && NEEDS_MOCK.has(subject.type) && !nestedStateNames(subject.raw).has(caused)) {
    throw new ValidationException(`stateConfiguration.errorCausedByState '${caused}' is not a state inside the ${subject.type} state under test`);
  }

  if (subject.type === "Task") {
    return { task: { name: "TestState mock", answers: [hasError ? { kind: "throw", error: error as string, cause } : { kind: "return", value: result }] } };
  }
  return {
    whole: ({ tolerates }) => {
      // Failed iterations beyond the Map's tolerance fail it as AWS does; a Map that tolerates none ignores the count
      // (recorded: BASE_MAP_STATE with mapIterationFailureCount 2 and no tolerance succeeds).
      if (failureCount !== undefined && tolerates && !tolerates(failureCount)) {
        throw new StatesError(StatesErrorName.ExceedToleratedFailureThreshold, "The specified tolerated failure threshold was exceeded");
      }
      if (hasError) throw new StatesError(error as string, cause);
      return structuredClone(result);
    },
  };
}
