import type { ExecutionResult, StateMachine } from "../stepfunctions";

/** The input text of an execution, for its logs: StartSyncExecution's own, else the JSON the pipe sends. */
const INPUT_TEXT = Symbol("inputText");

/** A machine whose every finished execution is handed to `log` with its input text. */
export function loggedMachine(machine: StateMachine, log: (inputText: string, run: ExecutionResult) => void): StateMachine {
  return {
    name: machine.name,
    arn: machine.arn,
    async execute(input, options) {
      const run = await machine.execute(input, options);
      log((options as { [INPUT_TEXT]?: string } | undefined)?.[INPUT_TEXT] ?? JSON.stringify(input), run);
      return run;
    },
  };
}

/** Runs an execution whose input text its logs will show (the text StartSyncExecution or the pipe sent). */
export function runWithText(machine: StateMachine, text: string, input: unknown, name?: string): Promise<ExecutionResult> {
  return machine.execute(input, { ...(name ? { name } : {}), [INPUT_TEXT]: text } as never);
}
