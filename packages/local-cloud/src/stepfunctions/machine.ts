/** createStateMachine: validates and compiles once, then runs executions. */
import { randomUUID } from "node:crypto";
import { setMaxListeners } from "node:events";
import { errorFields, InvalidArgumentError, StatesError, StatesErrorName, toStatesError } from "./errors";
import { realClock } from "../clock/clock";
import { History } from "./history/history";
import { compileMachine } from "./machine-compile";
import type { CompiledMachine } from "./definition/compiled";
import { MockConfigError, type MockedStates } from "./mocks/config";
import { taskStateNames } from "./mocks/task-states";
import type { Run, Thread } from "./runtime/context";
import { runProgram } from "./runtime/program";
import { STATE_TYPES } from "./states/table";
import { ThreadAborted } from "./runtime/retry";
import {
  ExecutionStatus,
  type ExecuteOptions,
  type ExecutionResult,
  type JsonValue,
  type StateMachine,
  type StateMachineOptions,
} from "./types";

const ARN = /^arn:(aws[a-z-]*):states:([a-z0-9-]+):(\d{12}):stateMachine:([A-Za-z0-9_-]{1,80})$/;
const EXECUTION_NAME = /^[A-Za-z0-9_-]{1,80}$/;

/** Objects and arrays become plain JSON (JSONata sequences carry extra flags). */
function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (JSON.parse(JSON.stringify(value)) as JsonValue);
}

/**
 * A definition validated and compiled once, for a caller that creates many machines from it (the simulation makes
 * one per run, with that run's clients): compiling is most of the cost of creating a machine. Compiled states are
 * read-only, so machines can share them.
 */
export class CompiledDefinition {
  private constructor(
    readonly definition: unknown,
    readonly machine: CompiledMachine,
  ) {}

  static of(definition: unknown): CompiledDefinition {
    return new CompiledDefinition(definition, compileMachine(definition));
  }
}

/**
 * Creates a state machine from a definition (object or JSON text, or compiled once with
 * `CompiledDefinition.of`). The definition is validated and every JSONata expression and JSONPath compiled now; a
 * DefinitionError lists every problem found.
 */
export function createStateMachine(source: unknown, options: StateMachineOptions): StateMachine {
  if (!options || typeof options.name !== "string" || options.name === "") throw new InvalidArgumentError("options.name is required (the state machine name)");
  const arn = ARN.exec(options.arn ?? "");
  if (!arn) throw new InvalidArgumentError(`options.arn must be a state machine ARN like arn:aws:states:us-east-1:000000000000:stateMachine:${options.name}, got '${options.arn}'`);
  const { definition, machine } = source instanceof CompiledDefinition ? source : CompiledDefinition.of(source);
  if (options.mocks) checkMockedStates(definition, options.mocks);
  const clock = options.clock ?? realClock;
  const historyOn = options.history !== false;
  const [, partition, region, account, smName] = arn;
  const roleArn = options.roleArn ?? `arn:${partition}:iam::${account}:role/${smName}-role`;
  const express = options.type === "EXPRESS";

  async function execute(input: unknown, opts: ExecuteOptions = {}): Promise<ExecutionResult> {
    const name = opts.name ?? randomUUID();
    if (!EXECUTION_NAME.test(name)) throw new InvalidArgumentError(`execution name '${name}' must be 1-80 characters of A-Z a-z 0-9 - _`);
    const timeoutSeconds = opts.timeoutSeconds ?? machine.timeoutSeconds;
    if (timeoutSeconds !== undefined && (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0)) {
      throw new InvalidArgumentError(`timeoutSeconds must be a positive number, got ${timeoutSeconds}`);
    }
    const executionArn = express
      ? `arn:${partition}:states:${region}:${account}:express:${smName}:${name}:${randomUUID()}`
      : `arn:${partition}:states:${region}:${account}:execution:${smName}:${name}`;
    const startMs = clock.now();
    const history = new History(historyOn, clock);
    const run: Run = {
      machine,
      clock,
      realClock: clock === realClock,
      integrations: options.integrations ?? {},
      region,
      history,
      execution: {
        Id: executionArn,
        Input: input,
        StartTime: new Date(startMs).toISOString(),
        Name: name,
        RoleArn: roleArn,
        ...(express ? {} : { RedriveCount: 0 }),
      },
      stateMachine: { Id: options.arn, Name: options.name },
      mocks: options.mocks,
      mockCounts: new Map(),
      runProgram: (program, value, inner) => runProgram(STATE_TYPES, program, value, run, inner),
      onTransition: options.onTransition,
    };
    const controller = new AbortController();
    setMaxListeners(0, controller.signal);
    const thread: Thread = { vars: {}, lastEventId: 0, signal: controller.signal };
    history.add(thread, "ExecutionStarted", historyOn ? { input, roleArn } : undefined);

    const finish = (status: ExecutionStatus, extra: Partial<ExecutionResult>): ExecutionResult => ({
      executionArn,
      name,
      status,
      ...extra,
      startDate: new Date(startMs),
      stopDate: new Date(clock.now()),
      // A timed-out or aborted run keeps unwinding in the background; its late events stay out of the result.
      events: status === ExecutionStatus.Succeeded || status === ExecutionStatus.Failed ? history.events : history.events.slice(),
    });

    let ended = false;
    const outcome: Array<Promise<ExecutionResult>> = [
      run.runProgram(machine.program, input, thread).then(
        (output) => {
          const out = toJson(output);
          history.add(thread, "ExecutionSucceeded", historyOn ? { output: out } : undefined);
          return finish(ExecutionStatus.Succeeded, { output: out });
        },
        (err) => {
          if (err instanceof ThreadAborted) return new Promise<ExecutionResult>(() => undefined);
          const e = toStatesError(err);
          history.add(thread, "ExecutionFailed", historyOn ? errorFields(e) : undefined);
          return finish(ExecutionStatus.Failed, errorFields(e));
        },
      ),
    ];
    if (timeoutSeconds !== undefined) {
      outcome.push(
        clock.sleep(timeoutSeconds * 1000, controller.signal).then(
          () => {
            const cause = `The execution timed out after ${timeoutSeconds} seconds.`;
            history.add(thread, "ExecutionTimedOut", historyOn ? { error: StatesErrorName.Timeout, cause } : undefined);
            return finish(ExecutionStatus.TimedOut, { error: StatesErrorName.Timeout, cause });
          },
          () => new Promise<ExecutionResult>(() => undefined),
        ),
      );
    }
    let onCallerAbort: (() => void) | undefined;
    if (opts.signal) {
      const signal = opts.signal;
      outcome.push(
        new Promise<ExecutionResult>((resolve) => {
          onCallerAbort = () => {
            if (ended) return;
            history.add(thread, "ExecutionAborted", historyOn ? {} : undefined);
            resolve(finish(ExecutionStatus.Aborted, { error: "States.Aborted", cause: String(signal.reason ?? "aborted by the caller") }));
          };
          if (signal.aborted) onCallerAbort();
          else signal.addEventListener("abort", onCallerAbort, { once: true });
        }),
      );
    }
    const result = await Promise.race(outcome);
    ended = true;
    // Stop timers, waits and in-flight tasks of whatever did not finish first.
    controller.abort(new StatesError(StatesErrorName.Timeout, "execution ended"));
    if (opts.signal && onCallerAbort) opts.signal.removeEventListener("abort", onCallerAbort);
    return result;
  }

  return { name: options.name, arn: options.arn, execute };
}

/** A mock for a state the definition does not have as a Task would silently never answer: refuse it. */
function checkMockedStates(definition: unknown, mocks: MockedStates): void {
  const tasks = taskStateNames(definition);
  const unknown = [...mocks.keys()].filter((name) => !tasks.has(name));
  if (unknown.length > 0) {
    throw new MockConfigError(
      `the test case mocks ${unknown.map((n) => `'${n}'`).join(", ")}, which ${unknown.length === 1 ? "is not a Task state" : "are not Task states"} of this definition (Task states: ${[...tasks].join(", ") || "none"})`,
    );
  }
}
