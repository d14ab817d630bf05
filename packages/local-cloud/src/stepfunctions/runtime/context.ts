/** Per-execution and per-branch run-time records. */
import type { CompiledMachine, CompiledProgram } from "../definition/compiled";
import type { History, EventCursor } from "../history/history";
import type { Clock } from "../../clock/clock";
import type { Integrations } from "../types";
import type { MockedStates } from "../mocks/config";
import type { StateProbe } from "./probe";

/**
 * `$states.context.Execution`, keys in the order AWS prints them; RedriveCount only for STANDARD machines. A TestState
 * run without a role reports `RoleArn: null` (recorded on AWS).
 */
interface ExecutionInfo {
  Id: string;
  Input: unknown;
  StartTime: string;
  Name: string;
  RoleArn: string | null;
  RedriveCount?: number;
}

/** One execution. */
export interface Run {
  readonly machine: CompiledMachine;
  readonly clock: Clock;
  /** True when the clock is the real one: JSONata's own $now/$millis are then used unchanged. */
  readonly realClock: boolean;
  readonly integrations: Integrations;
  readonly region: string;
  readonly history: History;
  readonly execution: ExecutionInfo;
  readonly stateMachine: { Id: string; Name: string };
  /** Mocked Task states of this machine, and how often each was invoked in this execution. */
  readonly mocks?: MockedStates;
  readonly mockCounts: Map<string, number>;
  /**
   * Runs a nested program (a Parallel branch, a Map iteration) on a thread of this execution with the machine's
   * state table: bound by machine.ts, so the states that nest programs need not import the program loop.
   */
  readonly runProgram: (program: CompiledProgram, input: unknown, thread: Thread) => Promise<unknown>;
  readonly onTransition?: (from: string, to: string | undefined, output: unknown) => void;
  /** Only in a TestState run: watches the one state and decides its retries (see probe.ts). */
  readonly probe?: StateProbe;
}

/** A line of control: the top-level program, a Parallel branch or a Map iteration. */
export interface Thread extends EventCursor {
  /** Variables in scope; inner scopes inherit from outer ones through the prototype chain. */
  vars: Record<string, unknown>;
  /** Aborts this thread (execution timeout/abort, or a sibling's failure in Map/Parallel). */
  signal: AbortSignal;
  /** `$states.context.Map.Item` of the iteration this thread runs. */
  mapItem?: { Index: number; Value: unknown; Key?: string; Source?: string };
}

/** `$states.context.State` of the state being run. */
export interface StateInfo {
  Name: string;
  EnteredTime: string;
  RetryCount: number;
  /** Task, Map and Parallel (the states that accept Retry) report RetryCount; others do not. */
  retryable?: boolean;
}

/** Builds `$states.context` / `$$` for one state. */
export function contextObject(run: Run, thread: Thread, state: StateInfo): Record<string, unknown> {
  // A context given to TestState replaces the whole object, empty members included (recorded on AWS).
  if (run.probe?.context) return run.probe.context;
  // Recorded on AWS (LocalStack snapshots test_base.py::test_query_context_object_values, a Pass state, and
  // test_base_scenarios.py::test_lambda_invoke_with_retry_extended_input, a Task with Retry): State has Name and
  // EnteredTime, and RetryCount only where the state can retry.
  const State = state.retryable ? { Name: state.Name, EnteredTime: state.EnteredTime, RetryCount: state.RetryCount } : { Name: state.Name, EnteredTime: state.EnteredTime };
  const ctx: Record<string, unknown> = { Execution: run.execution, StateMachine: run.stateMachine, State };
  if (thread.mapItem) ctx.Map = { Item: thread.mapItem };
  return ctx;
}

/** Creates an inner scope that reads the outer variables and writes its own. */
export function innerScope(outer: Record<string, unknown>): Record<string, unknown> {
  return Object.create(outer) as Record<string, unknown>;
}
