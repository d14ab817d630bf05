/** Shortcuts for building and running machines in tests. */
import type * as Emulators from "@effectively-once/local-cloud/emulators";
import type { ExecutionResult, StateMachineOptions } from "@effectively-once/local-cloud/emulators";
import { FakeClock } from "./fake-clock";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: the light entry's other helpers need no local cloud
const emulators = (): typeof Emulators => require("@effectively-once/local-cloud/emulators") as typeof Emulators;

const ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:test";

export function machine(definition: unknown, options: Partial<StateMachineOptions> = {}) {
  return emulators().createStateMachine(definition, { name: "test", arn: ARN, clock: new FakeClock(), ...options });
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
