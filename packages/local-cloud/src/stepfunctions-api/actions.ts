/**
 * The Step Functions actions the local endpoint answers, by their JSON-protocol name (`X-Amz-Target:
 * AWSStepFunctions.<Action>`): one handler each, given the parsed request body.
 */
import { testState, type TestStateOptions } from "../stepfunctions/test-state";

/** What every action can use: the endpoint's region, account and the clients a Task that is not mocked calls. */
export type ActionContext = TestStateOptions;

export type Action = (body: unknown, context: ActionContext) => Promise<unknown>;

export const ACTIONS = new Map<string, Action>([["TestState", (body, context) => testState(body, context)]]);
