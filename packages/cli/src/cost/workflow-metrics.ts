import type { Assumptions } from "./assumptions";
import { Step, type PathProfile } from "./paths";
import { StateMachineLogLevel } from "./types";

/** Express billing rounds each execution's duration up to the next 100 ms. */
const EXPRESS_BILLING_STEP_MS = 100;
/** ...and its memory up to the next 64 MB. */
const EXPRESS_MEMORY_CHUNK_MB = 64;

/** History events a step writes: all of them (log level ALL) and the error-type ones (logged at ERROR too). */
const STEP_EVENTS: Record<Step, { all: number; error: number }> = {
  [Step.Pass]: { all: 2, error: 0 }, // PassStateEntered, PassStateExited
  [Step.Choice]: { all: 2, error: 0 },
  [Step.Parallel]: { all: 6, error: 0 }, // Entered, Started, branch Pass Entered/Exited, Succeeded, Exited
  [Step.ParallelCaught]: { all: 4, error: 1 }, // Entered, Started, branch Pass Entered, ParallelStateFailed
  [Step.Dynamo]: { all: 5, error: 0 }, // TaskStateEntered, TaskScheduled, TaskStarted, TaskSucceeded, TaskStateExited
  [Step.DynamoCaught]: { all: 4, error: 1 }, // ... TaskFailed (caught: logged at ERROR although the record goes on)
  [Step.Sqs]: { all: 5, error: 0 },
  [Step.LambdaDownstream]: { all: 5, error: 0 },
  [Step.LambdaGuard]: { all: 5, error: 0 },
};

/** Per record inside a Map: MapIterationStarted + MapIterationSucceeded. */
const MAP_ITERATION_EVENTS = 2;
/** Per batch execution: ExecutionStarted, MapStateEntered/Started/Succeeded/Exited, ExecutionSucceeded. */
export const BATCH_EXECUTION_EVENTS = 6;
/** Per single-message execution without a Map: ExecutionStarted, ExecutionSucceeded. */
export const SINGLE_EXECUTION_EVENTS = 2;

function stepLatencyMs(step: Step, a: Assumptions): number {
  switch (step) {
    case Step.Pass:
    case Step.Choice:
      return a.sfnStateMs;
    case Step.Parallel:
    case Step.ParallelCaught:
      return 2 * a.sfnStateMs;
    case Step.Dynamo:
    case Step.DynamoCaught:
      return a.sfnDynamoMs;
    case Step.Sqs:
      return a.sfnSqsMs;
    case Step.LambdaDownstream:
      return a.sfnLambdaOverheadMs + a.functionMs;
    case Step.LambdaGuard:
      return a.sfnLambdaOverheadMs + a.baseline.guardMs;
  }
}

/** Time one record spends in the workflow on this path (steps run one after the other). */
export function pathLatencyMs(profile: PathProfile, a: Assumptions): number {
  return profile.steps.reduce((sum, step) => sum + stepLatencyMs(step, a), 0);
}

/** State machine log events of one record on this path, at a log level. */
export function pathLogEvents(profile: PathProfile, level: StateMachineLogLevel, inMap: boolean): { normal: number; error: number } {
  let normal = 0;
  let error = 0;
  for (const step of profile.steps) {
    const events = STEP_EVENTS[step];
    if (level === StateMachineLogLevel.All) {
      normal += events.all - events.error;
      error += events.error;
    } else if (level === StateMachineLogLevel.Error) {
      error += events.error;
    }
  }
  if (level === StateMachineLogLevel.All && inMap) normal += MAP_ITERATION_EVENTS;
  return { normal, error };
}

/** Bytes the state machine logs for one record on this path (events + per-event metadata; data when included). */
export function pathLogBytes(profile: PathProfile, level: StateMachineLogLevel, inMap: boolean, includeExecutionData: boolean, a: Assumptions): number {
  const { normal, error } = pathLogEvents(profile, level, inMap);
  const data = includeExecutionData ? a.messageBodyBytes + a.recordOverheadBytes : 0;
  return normal * (a.sfnEventBytes + data + a.logEventOverheadBytes) + error * (a.sfnErrorEventBytes + data + a.logEventOverheadBytes);
}

/** Bytes logged once per execution, whatever its records did (only at ALL: successful executions log no errors). */
export function executionLogBytes(level: StateMachineLogLevel, events: number, a: Assumptions): number {
  return level === StateMachineLogLevel.All ? events * (a.sfnEventBytes + a.logEventOverheadBytes) : 0;
}

export function billedExpressMs(durationMs: number): number {
  return Math.ceil(durationMs / EXPRESS_BILLING_STEP_MS) * EXPRESS_BILLING_STEP_MS;
}

export function billedExpressGb(memoryMb: number): number {
  return (Math.ceil(memoryMb / EXPRESS_MEMORY_CHUNK_MB) * EXPRESS_MEMORY_CHUNK_MB) / 1024;
}

/**
 * Expected billed duration of one execution of `batchSize` records that run `concurrency` at a time. Records are
 * independent draws from the path mix; an execution lasts as long as its slowest record times the waves it needs
 * (an approximation: records of different waves may differ). Exact over the mix: P(slowest ≤ L) = P(one ≤ L)^n.
 */
export function expectedBilledMs(mix: readonly { share: number; latencyMs: number }[], batchSize: number, concurrency: number, startMs: number): number {
  const waves = Math.ceil(batchSize / Math.max(1, Math.min(concurrency, batchSize)));
  const total = mix.reduce((sum, m) => sum + m.share, 0);
  if (total <= 0) return billedExpressMs(startMs);
  const levels = [...new Set(mix.filter((m) => m.share > 0).map((m) => m.latencyMs))].sort((x, y) => x - y);
  let expected = 0;
  let below = 0; // P(max ≤ previous level)
  for (const level of levels) {
    const share = mix.filter((m) => m.latencyMs <= level).reduce((sum, m) => sum + m.share, 0) / total;
    const atMost = share ** batchSize;
    expected += (atMost - below) * billedExpressMs(startMs + waves * level);
    below = atMost;
  }
  return expected;
}
