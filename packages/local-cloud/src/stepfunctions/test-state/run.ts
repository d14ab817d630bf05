/**
 * Runs one state the way AWS's TestState API does, on the interpreter's own state types: the request is checked
 * (request.ts, definition.ts, mock.ts, context.ts, inputs.ts), the state runs once with a probe (probe.ts), and the
 * outcome becomes TestState's answer: SUCCEEDED (output, nextState), CAUGHT_ERROR (a Catch handled the error: its
 * output and Next), RETRIABLE (a Retry would try again) or FAILED.
 */
import { randomUUID } from "node:crypto";
import { NO_LONGER_NEEDED, realClock, type Clock } from "../../clock/clock";
import { errorFields, StatesError, StatesErrorName, toStatesError } from "../errors";
import { History } from "../history/history";
import type { Run, StateInfo, Thread } from "../runtime/context";
import { exceedsPayloadLimit, terminalDataLimit } from "../runtime/data-limit";
import { RETRYABLE, runProgram } from "../runtime/program";
import { ThreadAborted } from "../runtime/retry";
import { STATE_TYPES } from "../states/table";
import type { Step } from "../states/types";
import type { Integrations } from "../types";
import { givenContext } from "./context";
import { stateUnderTest, TESTED_STATE } from "./definition";
import { inspectionData } from "./inspection";
import { checkRole, stateInput, stateVariables } from "./inputs";
import { mockPlan } from "./mock";
import { RetryPending, TestStateProbe } from "./probe";
import { readRequest } from "./request";
import { InspectionLevel, TestStatus, type TestStateOutput } from "./types";

/** AWS: "The TestState API can run for up to five minutes." */
const TEST_TIMEOUT_MS = 5 * 60 * 1000;

/** Where and how TestState runs: the generated context's ARNs, the clients, the clock. */
export interface TestStateOptions {
  /** Region of the generated context's ARNs (default us-east-1). */
  readonly region?: string;
  /** Account of the generated context's ARNs (default 000000000000). */
  readonly account?: string;
  /** Partition of the generated context's ARNs (default aws). */
  readonly partition?: string;
  /** Clients a Task that is not mocked calls; without one, such a Task fails naming what is missing. */
  readonly integrations?: Integrations;
  /** Time source (default: the real clock). Wait states are not waited out. */
  readonly clock?: Clock;
  /** How long one test may run (default AWS's five minutes), then it fails with States.Timeout. */
  readonly timeoutMs?: number;
}

type Outcome = { step: Step } | { error: StatesError; retriable?: true };

/**
 * Answers one TestState request (the API's TestStateInput, as parsed JSON). Throws a TestStateApiError (errors.ts)
 * where AWS answers with an error; otherwise resolves to TestStateOutput, whatever the state did.
 */
export async function testState(body: unknown, options: TestStateOptions = {}): Promise<TestStateOutput> {
  const request = readRequest(body);
  const subject = stateUnderTest(request.definition, request.stateName);
  const plan = mockPlan(request, subject);
  const context = givenContext(request.context, request.mock !== undefined, subject);
  checkRole(request, subject);
  const input = stateInput(request.input);
  const vars = stateVariables(request.variables);

  const clock = options.clock ?? realClock;
  const { region = "us-east-1", account = "000000000000", partition = "aws" } = options;
  const machineName = randomUUID();
  const executionName = randomUUID();
  const now = new Date(clock.now()).toISOString();
  const retryCount = request.stateConfiguration?.retrierRetryCount ?? 0;
  const probe = new TestStateProbe(retryCount, context, plan.whole);
  const run: Run = {
    machine: subject.machine,
    clock,
    realClock: clock === realClock,
    integrations: options.integrations ?? {},
    region,
    history: new History(false, clock),
    // Keys in the order AWS's TestState prints them (recorded: Id, Input, Name, RoleArn, StartTime).
    execution: { Id: `arn:${partition}:states:${region}:${account}:express:${machineName}:${executionName}`, Input: input, Name: executionName, RoleArn: request.roleArn ?? null, StartTime: now },
    stateMachine: { Id: `arn:${partition}:states:${region}:${account}:stateMachine:${machineName}`, Name: machineName },
    mocks: plan.task ? new Map([[TESTED_STATE, plan.task]]) : undefined,
    mockCounts: new Map(),
    runProgram: (program, value, inner) => runProgram(STATE_TYPES, program, value, run, inner),
    probe,
  };
  const controller = new AbortController();
  const thread: Thread = { vars, lastEventId: 0, signal: controller.signal };
  const info: StateInfo = { Name: TESTED_STATE, EnteredTime: now, RetryCount: retryCount, retryable: RETRYABLE.has(subject.type) };

  const timeoutMs = options.timeoutMs ?? TEST_TIMEOUT_MS;
  const attempt: Promise<Outcome> = STATE_TYPES[subject.type].execute({ state: subject.compiled, input, info, enteredEventId: 0 }, run, thread).then(
    (step): Outcome => (exceedsPayloadLimit(step.output) ? { error: terminalDataLimit(TESTED_STATE, "output") } : { step }),
    (e): Outcome => (e instanceof RetryPending ? { error: e.error, retriable: true } : { error: toStatesError(e) }),
  );
  const timedOut = clock.sleep(timeoutMs, controller.signal).then(
    (): Outcome => ({ error: new StatesError(StatesErrorName.Timeout, `The state did not finish within the ${timeoutMs / 1000} seconds a test may run.`) }),
    () => new Promise<Outcome>(() => undefined),
  );
  const outcome = await Promise.race([attempt, timedOut]);
  // Stops the timer, or the state's tasks and waits when the timer won.
  controller.abort("error" in outcome && outcome.error.error === StatesErrorName.Timeout ? new ThreadAborted() : NO_LONGER_NEEDED);

  const answer: TestStateOutput = "step" in outcome ? succeeded(outcome.step, probe) : failed(outcome);
  if (request.inspectionLevel === InspectionLevel.Debug || request.inspectionLevel === InspectionLevel.Trace) {
    answer.inspectionData = inspectionData({ type: subject.type, language: subject.language, input, stages: probe.stages, errorDetails: probe.errorDetails, variables: { ...vars } });
  }
  return answer;
}

function succeeded(step: Step, probe: TestStateProbe): TestStateOutput {
  const caught = probe.caughtError;
  return {
    ...(caught ? errorFields(caught) : {}),
    output: JSON.stringify(step.output ?? null),
    ...(step.next !== undefined ? { nextState: step.next } : {}),
    status: caught ? TestStatus.CaughtError : TestStatus.Succeeded,
  };
}

function failed(outcome: { error: StatesError; retriable?: true }): TestStateOutput {
  return { ...errorFields(outcome.error), status: outcome.retriable ? TestStatus.Retriable : TestStatus.Failed };
}
