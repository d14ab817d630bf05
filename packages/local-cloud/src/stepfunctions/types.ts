/** Public types of the Step Functions interpreter. */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { Clock } from "../clock/clock";
import type { MockedStates } from "./mocks/config";

/** A JSON value as Step Functions passes it between states. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * What the DynamoDB integrations call: the AWS SDK v3 client's `send(command, { abortSignal })`. The local cloud
 * passes a lean JSON-protocol client with the same shape (src/json-protocol), which answers as the SDK does.
 */
export interface DynamoDbSender {
  send(command: { readonly input: object }, options?: { abortSignal?: AbortSignal }): Promise<object>;
}

/**
 * Invokes a Lambda function the way the Lambda Invoke API does. The local cloud supplies one (it has no Lambda
 * HTTP API); a service error thrown by it carries the Lambda exception name in `name`
 * (e.g. `TooManyRequestsException`).
 */
export type LambdaInvoker = (
  req: { FunctionName: string; Payload: string; InvocationType?: string; Qualifier?: string; ClientContext?: string },
  signal?: AbortSignal,
) => Promise<{ StatusCode: number; Payload: string; FunctionError?: string; ExecutedVersion?: string }>;

/** Clients for the task integrations; each is optional, a task needing a missing one fails clearly. */
export interface Integrations {
  dynamodb?: DynamoDBClient | DynamoDbSender;
  sqs?: SQSClient;
  lambda?: LambdaInvoker;
  /** CloudWatch Logs (PutLogEvents): a client of the local cloud's Logs endpoint, with the SDK's `send` shape. */
  logs?: DynamoDbSender;
}

/** Options of {@link createStateMachine}. */
export interface StateMachineOptions {
  /** State machine name (used in `$states.context.StateMachine.Name` and execution ARNs). */
  name: string;
  /** State machine ARN, e.g. `arn:aws:states:us-east-1:000000000000:stateMachine:pipeline`. */
  arn: string;
  /** Role ARN reported in `$states.context.Execution.RoleArn`. */
  roleArn?: string;
  /**
   * Workflow type (default STANDARD). EXPRESS executions have ARNs `arn:aws:states:<region>:<account>:express:
   * <machine>:<name>:<uuid>` and no `Execution.RedriveCount` in the context object (recorded on AWS).
   */
  type?: "STANDARD" | "EXPRESS";
  integrations?: Integrations;
  /** Time source (default: the real clock). */
  clock?: Clock;
  /** Record the execution event history (default true). Switch off for throughput. */
  history?: boolean;
  /**
   * Task states answered from a mock configuration instead of their integration (see `mockedStatesOf`): state
   * name → mocked response. Other states call their integration as usual.
   */
  mocks?: MockedStates;
  /**
   * Called as each state hands over to the next (`to` undefined at an end), with the state's output, e.g. to measure
   * which paths ran or to see each record's outcome the moment it is decided.
   */
  onTransition?: (from: string, to: string | undefined, output: unknown) => void;
}

/** Options of one execution. */
export interface ExecuteOptions {
  /** Execution name (default: a UUID). */
  name?: string;
  /** Overrides the definition's top-level `TimeoutSeconds`. */
  timeoutSeconds?: number;
  /** Aborts the execution (status ABORTED). */
  signal?: AbortSignal;
}

export const ExecutionStatus = {
  Succeeded: "SUCCEEDED",
  Failed: "FAILED",
  TimedOut: "TIMED_OUT",
  Aborted: "ABORTED",
} as const;
export type ExecutionStatus = (typeof ExecutionStatus)[keyof typeof ExecutionStatus];

/** One event of the execution history (AWS GetExecutionHistory equivalent). */
export interface HistoryEvent {
  id: number;
  previousEventId: number;
  /** Epoch milliseconds of the clock in use. */
  timestamp: number;
  /** AWS event type, e.g. `TaskStateEntered`, `TaskSucceeded`, `MapIterationStarted`. */
  type: string;
  /** The event's details, with AWS field names (`name`, `input`, `output`, `error`, `cause`, `resource`, ...). */
  details?: Record<string, unknown>;
}

/** What {@link StateMachine.execute} resolves to. */
export interface ExecutionResult {
  executionArn: string;
  name: string;
  status: ExecutionStatus;
  /** Output (SUCCEEDED only). */
  output?: JsonValue;
  error?: string;
  cause?: string;
  startDate: Date;
  stopDate: Date;
  /** The event history (empty when history is off). */
  events: HistoryEvent[];
}

/** A created state machine. */
export interface StateMachine {
  readonly name: string;
  readonly arn: string;
  /** Runs one execution to its end. Never rejects for a failing execution: see `status`. */
  execute(input: unknown, options?: ExecuteOptions): Promise<ExecutionResult>;
}
