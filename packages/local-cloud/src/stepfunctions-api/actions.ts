/**
 * The Step Functions actions the local endpoint answers, by their JSON-protocol name (`X-Amz-Target:
 * AWSStepFunctions.<Action>`): one handler each, given the parsed request body.
 */
import { testState, type TestStateOptions } from "../stepfunctions/test-state";
import { startSyncExecution, type SyncExecutions } from "./start-sync-execution";

/** What every action can use: the endpoint's region, account, the clients a Task that is not mocked calls, and the machines StartSyncExecution starts. */
export interface ActionContext extends TestStateOptions {
  /** The state machines StartSyncExecution may start, by ARN; without them it answers StateMachineDoesNotExist. */
  readonly executions?: SyncExecutions;
}

export type Action = (body: unknown, context: ActionContext) => Promise<unknown>;

export const ACTIONS = new Map<string, Action>([
  ["TestState", (body, context) => testState(body, context)],
  ["StartSyncExecution", (body, context) => startSyncExecution(body, context.executions)],
]);
