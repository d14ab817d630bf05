import { MockConfigError, mockedStatesOf, type MockedStates } from "../stepfunctions";

/**
 * The mocked states of one of the stack's machines, or undefined when the configuration does not name it. A
 * configuration that names none of the stack's machines is refused: it would silently mock nothing.
 */
export function mocksFor(
  mocks: { readonly config: unknown; readonly testCase: string } | undefined,
  machineName: string,
  stackMachines: readonly string[],
): MockedStates | undefined {
  if (!mocks) return undefined;
  const configured = Object.keys((mocks.config as { StateMachines?: object } | undefined)?.StateMachines ?? {});
  if (!configured.some((name) => stackMachines.includes(name))) {
    throw new MockConfigError(
      `StateMachines names ${configured.join(", ") || "no state machine"}; the stack's state machines are ${stackMachines.join(", ")}`,
    );
  }
  return configured.includes(machineName) ? mockedStatesOf(mocks.config, mocks.testCase, machineName) : undefined;
}
