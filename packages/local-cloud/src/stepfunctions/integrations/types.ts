/** The contract between the Task state and service integrations. */
import type { Integrations } from "../types";

/** What a handler receives for one invocation. */
export interface TaskCall {
  /** The full Resource ARN of the Task state. */
  readonly resourceArn: string;
  readonly integrations: Integrations;
  /** Aborted on the Task's TimeoutSeconds or when the execution ends. */
  readonly signal: AbortSignal;
}

/** One integration: an AWS API call shaped as Step Functions shapes it. Errors thrown are StatesErrors with AWS names. */
export interface TaskHandler {
  /** History fields (`resourceType` e.g. `dynamodb`, `resource` e.g. `putItem`). */
  readonly resourceType: string;
  readonly resource: string;
  /** Legacy Lambda ARN resources record LambdaFunction* events instead of Task* events. */
  readonly legacyLambda?: boolean;
  invoke(parameters: unknown, call: TaskCall): Promise<unknown>;
}

/** A table row: a Resource ARN pattern and the handler built from its match. */
export interface IntegrationRoute {
  readonly pattern: RegExp;
  readonly create: (match: RegExpExecArray) => TaskHandler;
}
