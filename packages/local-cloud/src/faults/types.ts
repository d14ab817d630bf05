/**
 * Fault-plan vocabulary shared by the Lambda runner, the DynamoDB fault proxy and (for step latency) the
 * Step Functions interpreter. A spec is plain data (JSON-friendly) except for the optional `where` predicates.
 */

/** What a Lambda fault does to an invocation. */
export const LambdaFaultAction = {
  /** The invocation returns a function error (a transient error, like a dependency failing). */
  Fail: "fail",
  /** The execution environment dies (Runtime.ExitError); the invocation returns that error. */
  Crash: "crash",
  /** The invocation never returns; it ends as Lambda's timeout (Sandbox.Timedout). */
  Hang: "hang",
  /** The handler starts late by `latencyMs` (the delay eats into the function timeout). */
  Delay: "delay",
} as const;
export type LambdaFaultAction = (typeof LambdaFaultAction)[keyof typeof LambdaFaultAction];

/** When a Lambda fault strikes relative to the side effect. */
export const FaultTiming = {
  /** Before the side effect: it is never applied. */
  Before: "before",
  /** After the side effect reached the table: it is applied, but the caller sees a failure. */
  After: "after",
} as const;
export type FaultTiming = (typeof FaultTiming)[keyof typeof FaultTiming];

/** What a DynamoDB fault does to a request. */
export const DynamoFaultAction = {
  /** Answer HTTP 400 with a throttling error, exactly as DynamoDB does; nothing reaches the table. */
  Throttle: "throttle",
  /** Answer HTTP 500 InternalServerError; nothing reaches the table. */
  Error: "error",
  /** Forward the request after `latencyMs`. */
  Latency: "latency",
} as const;
export type DynamoFaultAction = (typeof DynamoFaultAction)[keyof typeof DynamoFaultAction];

/** Throttling errors DynamoDB sends (HTTP 400); the AWS SDK retries all of them. */
export const DynamoThrottleError = {
  ProvisionedThroughputExceeded: "ProvisionedThroughputExceededException",
  Throttling: "ThrottlingException",
  RequestLimitExceeded: "RequestLimitExceeded",
} as const;
export type DynamoThrottleError = (typeof DynamoThrottleError)[keyof typeof DynamoThrottleError];

/** One DynamoDB JSON-protocol request as seen on the wire. */
export interface DynamoRequestInfo {
  /** Operation from X-Amz-Target, e.g. "PutItem". */
  operation: string;
  /** Every table the request touches (one for item calls, several for batch/transact calls). */
  tables: string[];
  /** The parsed JSON body (DynamoDB attribute-value format). */
  body: Record<string, unknown>;
  /** Who sent it: the id in the endpoint path `/w/<id>`, or undefined for a plain endpoint. */
  caller?: string;
}

/** A scalar an attribute is compared with: S, N (as number or string), BOOL or NULL values. */
export type AttributeScalar = string | number | boolean | null;

/**
 * Selects DynamoDB requests. Every given field must match (AND); list fields match any of their entries.
 * `item` compares attributes of any item or key in the request (Item, Key, batch and transact entries).
 */
export interface DynamoRequestMatcher {
  operation?: string | string[];
  table?: string | string[];
  /** Endpoint-path identity, e.g. a Lambda worker id; only the fault proxy knows it. */
  caller?: string | string[];
  /** e.g. `{ sk: "EFFECT" }` matches `PutItem` of an item whose `sk` is the string EFFECT. */
  item?: Record<string, AttributeScalar>;
  /** Escape hatch for anything else (not JSON-serialisable). */
  where?: (request: DynamoRequestInfo) => boolean;
}

/** How often a rule fires. Neither field: every match. Both: each match with probability p, at most N times. */
interface FaultGate {
  /** Fire on the first N matches that pass the probability (default unlimited). */
  times?: number;
  /** Fire on each match with this probability, drawn from the plan's seeded RNG (default 1). */
  probability?: number;
}

/** A fault on a Lambda function, keyed to its side effect. */
export interface LambdaFaultRule extends FaultGate {
  service: "lambda";
  /** Stable id for reports and RNG streams (default `lambda#<index>`). */
  id?: string;
  /** Function name (not ARN). */
  function: string;
  action: LambdaFaultAction;
  /** Required for fail/crash/hang. */
  when?: FaultTiming;
  /**
   * The side effect, identified on the wire among the function's own DynamoDB requests. Before: the matching
   * request is stopped before it reaches the table. After: the matching request succeeded (HTTP 200), then the
   * fault strikes before the handler can return. Without it, the whole handler run is the side effect:
   * before = the handler never runs, after = it ran to completion.
   */
  sideEffect?: DynamoRequestMatcher;
  /** For `fail`: the errorType the caller sees (default "InjectedTransientError"). */
  errorType?: string;
  /** For `fail`: the errorMessage the caller sees. */
  errorMessage?: string;
  /** For `delay`. */
  latencyMs?: number;
}

/** A fault on DynamoDB requests, applied by the fault proxy. */
export interface DynamoFaultRule extends FaultGate {
  service: "dynamodb";
  id?: string;
  action: DynamoFaultAction;
  match?: DynamoRequestMatcher;
  /** For `throttle` (default ProvisionedThroughputExceededException). */
  error?: DynamoThrottleError;
  /** For `latency`. */
  latencyMs?: number;
}

/** Extra latency before a Step Functions state runs (read by the interpreter through `decideStep`). */
export interface StepFaultRule extends FaultGate {
  service: "stepfunctions";
  id?: string;
  action: "delay";
  /** State name(s); omitted = every state. */
  state?: string | string[];
  /** State machine name(s); omitted = every machine. */
  stateMachine?: string | string[];
  latencyMs: number;
}

export type FaultRule = LambdaFaultRule | DynamoFaultRule | StepFaultRule;

/** The plan as written by a test or read from a JSON file. */
export interface FaultPlanSpec {
  /** Makes every decision reproducible: same seed + same sequence of requests = same faults. */
  seed: string | number;
  rules: FaultRule[];
}

/** Where the Lambda runner asks the plan. */
export interface LambdaFaultPoint {
  functionName: string;
  when: FaultTiming;
  /** Present when the point is a DynamoDB request of the function (side-effect rules); absent otherwise. */
  request?: DynamoRequestInfo;
}

export interface LambdaFaultDecision {
  ruleId: string;
  action: LambdaFaultAction;
  when?: FaultTiming;
  errorType: string;
  errorMessage: string;
  latencyMs: number;
}

export interface DynamoFaultDecision {
  /** Delay before answering (0 = none). */
  latencyMs: number;
  /** Set when the request must be answered with an error instead of being forwarded. */
  failure?: { ruleId: string; action: "throttle" | "error"; errorType: string };
  ruleIds: string[];
}

export interface StepFaultPoint {
  stateMachine?: string;
  state: string;
}

export interface StepFaultDecision {
  ruleId: string;
  latencyMs: number;
}

/** One injected fault, as recorded by the plan. */
export interface FaultEvent {
  /** Sequence number, from 1. */
  seq: number;
  ruleId: string;
  /** e.g. "lambda.crash.after", "dynamodb.throttle", "stepfunctions.delay". */
  kind: string;
  /** Function, table(s) or state concerned. */
  target: string;
  at: number;
}

export interface FaultReport {
  seed: string;
  total: number;
  byKind: Record<string, number>;
  byRule: Record<string, number>;
}

/** The live plan: every decide* call that returns a decision has already been recorded as injected. */
export interface FaultPlan {
  readonly seed: string;
  readonly rules: readonly FaultRule[];
  /** fail/crash/hang rules: before dispatch, after the handler returned, or at a side-effect request. */
  decideLambda(point: LambdaFaultPoint): LambdaFaultDecision | undefined;
  /** delay rules, asked once per invocation before the handler starts. */
  decideLambdaDelay(functionName: string): LambdaFaultDecision | undefined;
  decideDynamo(request: DynamoRequestInfo): DynamoFaultDecision | undefined;
  decideStep(point: StepFaultPoint): StepFaultDecision | undefined;
  /** True when some Lambda rule watches DynamoDB requests (the runner then needs the fault proxy). */
  hasSideEffectRules(functionName?: string): boolean;
  report(): FaultReport;
  events(): readonly FaultEvent[];
}
