/** Shortcuts for building and running machines in tests. */
import { createStateMachine, type ExecutionResult, type StateMachineOptions } from "@effectively-once/local-cloud/emulators";
import { FakeClock } from "./fake-clock";

const ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:test";

export function machine(definition: unknown, options: Partial<StateMachineOptions> = {}) {
  return createStateMachine(definition, { name: "test", arn: ARN, clock: new FakeClock(), ...options });
}

/** Creates and runs once. */
export async function runOnce(definition: unknown, input: unknown = {}, options: Partial<StateMachineOptions> = {}): Promise<ExecutionResult> {
  return machine(definition, options).execute(input);
}

/** A one-state JSONata machine around `state`. */
export function single(state: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { QueryLanguage: "JSONata", StartAt: "S", States: { S: { End: true, ...state }, ...extra } };
}

/** The event types of a run, in order. */
export function types(run: ExecutionResult): string[] {
  return run.events.map((e) => e.type);
}
