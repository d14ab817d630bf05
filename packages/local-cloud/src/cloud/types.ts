import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { FaultPlan, FaultPlanSpec, FaultReport } from "../faults";
import type { LambdaLogs, LambdaRunnerStats } from "../lambda";
import type { PipeEvent, PipeStats } from "../pipes";
import type { ProvisionedStack } from "../provision";
import type { ExecutionResult } from "../stepfunctions";
import type { DynamoPlacement, TtlSweeper } from "../dynamodb";
import type { EarlyVisibilityExpiry } from "./visibility-faults";
import type { SharedClock } from "../clock";
import type { LocalAlarms } from "../alarms";
import type { RecordOutcome } from "@effectively-once/contract";

/** How to run a synthesized stack locally: `stackFile` is required, everything else has a default. */
export interface LocalCloudOptions {
  /** The synthesized stack: `cdktf.out/stacks/<stack>/cdk.tf.json`. */
  readonly stackFile: string;
  /** Faults to inject (seeded, reproducible). Off by default. */
  readonly faults?: FaultPlanSpec | FaultPlan;
  /** Console output of the functions (default "silent"). */
  readonly functionLogs?: LambdaLogs;
  /** Pollers per pipe (default 2). */
  readonly pipeConcurrency?: number;
  /**
   * Local deviation, off by default: failed records become visible again after this many seconds instead of the
   * queue's visibility timeout, so tests need not wait minutes for a retry.
   */
  readonly retryVisibilityTimeoutSeconds?: number;
  /** Fault: received messages become visible again while their batch runs (a too-short visibility timeout). */
  readonly expireVisibilityEarly?: EarlyVisibilityExpiry;
  /** Interval of the TTL sweeper (default 1,000 ms; 0 = only on `sweepTtl()`). */
  readonly ttlSweepIntervalMs?: number;
  /** Start the pipes at once (default true); false lets a test publish first and then `startPipes()`. */
  readonly startPipes?: boolean;
  /** Keep the event history of executions that did not succeed, for debugging (default 20). */
  readonly keepFailedExecutions?: number;
  /** Where dynalite runs: its own worker thread (default) or the host's event loop. */
  readonly dynamoPlacement?: DynamoPlacement;
  /**
   * Execution environments (worker threads) kept per function; more concurrent invocations wait for one to be free
   * (default: the host's cores + 1). A host guard, not Lambda behaviour: Lambda would start more. Each environment
   * JIT-compiles the bundle on its own, so a few busy ones cost far less CPU per invocation than many idle ones
   * (measured: 5.4 ms with one, 9–11 ms with ten, same function). A function's reserved concurrency overrides it.
   */
  readonly maxFunctionEnvironments?: number;
  /**
   * Answers Task states of the stack's state machines from a Step Functions Local mock configuration (parsed
   * JSON) instead of calling their integration, e.g. to simulate the downstream function without running it.
   * Each machine uses `StateMachines.<its name>.TestCases.<testCase>` when the file configures it.
   */
  readonly mocks?: {
    /** The parsed mock configuration file (`StateMachines`, `MockedResponses`). */
    readonly config: unknown;
    /** The test case each machine answers from. */
    readonly testCase: string;
  };
  /**
   * AWS limits enforced locally, each off unless set (runs without them keep their paths). `syncExpressConcurrency`:
   * synchronous Express executions in flight (the account's quota, 1,000 or more on AWS); a StartSyncExecution beyond
   * it fails with ThrottlingException and the pipe retries it. Set it low to find where the pipeline saturates.
   */
  readonly limits?: {
    /** Synchronous Express executions in flight at most; unlimited when unset. */
    readonly syncExpressConcurrency?: number;
  };
}

/** One record's fate, as the contract reads it from an execution (`packages/contract/src/outcomes.ts`). */
export interface OutcomeEvent {
  /** The event kind. */
  readonly type: "record-outcome";
  /** The SQS message id of the record. */
  readonly messageId: string;
  /** What the record became: processed, duplicate, quarantined or retry. */
  readonly outcome: RecordOutcome;
  /** The quarantine reason (`invalid-message`, `payload-mismatch`, `rejected`), when quarantined. */
  readonly reason?: string;
  /** One sentence on why, when the workflow gave one (never a stack trace). */
  readonly detail?: string;
  /** When the execution reported it (epoch milliseconds, on the cloud's clock). */
  readonly at: number;
}

/** What `LocalCloud.subscribe` delivers: the pipe's batch events and each record's outcome. */
export type CloudEvent = PipeEvent | OutcomeEvent;

export interface OutcomeCounts {
  processed: number;
  duplicate: number;
  quarantined: number;
  retry: number;
  /** Quarantined records by reason. */
  quarantinedByReason: Record<string, number>;
}

/** Counters of a running local cloud (`LocalCloud.stats()`): outcomes, batches, faults injected. */
export interface LocalCloudStats {
  /** Per pipe (by name): batches, records and invocation results. */
  readonly pipes: Record<string, PipeStats>;
  /** Record outcomes, counted over every execution. */
  readonly outcomes: OutcomeCounts;
  /** Per function (by name): invocations, errors, cold starts. */
  readonly functions: LambdaRunnerStats["functions"];
  /** State machine executions, by result. */
  readonly executions: {
    /** Executions started by the pipes. */
    started: number;
    /** Executions that succeeded (whatever their records became). */
    succeeded: number;
    /** Executions that failed: the pipe retries their whole batch. */
    failed: number;
    /** Executions stopped by the state machine's `TimeoutSeconds`. */
    timedOut: number;
  };
  /** The faults injected so far, by kind (with `faults` set). */
  readonly faults?: FaultReport;
  /** Messages whose visibility the `expireVisibilityEarly` fault expired. */
  readonly visibilityExpiredEarly: number;
  /** Items the TTL sweeper deleted. */
  readonly ttlDeleted: number;
  /** Requests dynalite served, per operation, from every caller (functions, state machines, tools). */
  readonly dynamodbRequests: Record<string, number>;
  /** Only with `limits.syncExpressConcurrency`: the limit, executions in flight and starts refused. */
  readonly syncExpress?: {
    /** The configured `limits.syncExpressConcurrency`. */
    readonly limit: number;
    /** Synchronous executions running now. */
    readonly inFlight: number;
    /** Starts refused with ThrottlingException so far. */
    readonly throttled: number;
  };
}

/** A running local cloud. */
export interface LocalCloud {
  /** The region of the stack's provider, which every local client uses. */
  readonly region: string;
  /** Where the emulators listen, for clients of your own (any SQS or DynamoDB client). */
  readonly endpoints: {
    /** The local SQS endpoint (`http://127.0.0.1:<port>`), serving both SQS wire protocols. */
    readonly sqs: string;
    /** The local DynamoDB endpoint (`http://127.0.0.1:<port>`). */
    readonly dynamodb: string;
    /**
     * The local Step Functions endpoint (`http://127.0.0.1:<port>`), answering TestState, and StartSyncExecution on the
     * stack's EXPRESS machines. AWS SDKs and CLIs prefix its host with `sync-` unless told not to
     * (`disableHostPrefix: true`, `AWS_DISABLE_HOST_PREFIX_INJECTION=true`).
     */
    readonly stepfunctions: string;
    /** The local CloudWatch Logs endpoint (`http://127.0.0.1:<port>`): FilterLogEvents over the state machines' execution logs. */
    readonly logs: string;
    /** The local Lambda API endpoint (`http://127.0.0.1:<port>`): GetFunctionConfiguration of the stack's functions. */
    readonly lambda: string;
    /** The local CloudWatch endpoint (`http://127.0.0.1:<port>`): DescribeAlarms over the local alarm evaluator. */
    readonly cloudwatch: string;
  };
  /**
   * The stack's CloudWatch alarms, evaluated on the cloud's clock over the metrics the local services publish
   * (alarms/README.md): `advance(seconds)` moves time a minute at a time, `state(name)`, `fired()`.
   */
  readonly alarms: LocalAlarms;
  /** The stack's outputs with local values (`queue_url`, `ledger_table_name`, …). */
  readonly outputs: Record<string, unknown>;
  /** What was created from the stack file: queues, tables, functions, state machines and pipes. */
  readonly provisioned: ProvisionedStack;
  /** Clients for the emulators (no faults on these), for tests and tools. */
  readonly clients: {
    /** An SQS client for the local endpoint. */
    readonly sqs: SQSClient;
    /** A DynamoDB client for the local endpoint. */
    readonly dynamodb: DynamoDBClient;
  };
  /** The fault plan in force, when `faults` was given. */
  readonly faults?: FaultPlan;
  /**
   * The wall clock every part of the cloud reads (host and worker threads): `clock.advance(seconds)` jumps
   * retention windows, leases and visibility timeouts without waiting. Advance while idle (`drain()` first).
   */
  readonly clock: SharedClock;
  /** Starts the pipes (when created with `startPipes: false`). */
  startPipes(): void;
  /** Adds a listener for pipe and record-outcome events; returns a function that removes it. */
  subscribe(listener: (event: CloudEvent) => void): () => void;
  /** Counters of the cloud so far: outcomes, batches, executions, faults injected. */
  stats(): LocalCloudStats;
  /** Resolves once every pipe's source queue is empty and no batch is in flight. */
  drain(options?: { timeoutMs?: number }): Promise<void>;
  /** Runs the TTL sweeper once now. */
  sweepTtl(): ReturnType<TtlSweeper["sweepOnce"]>;
  /** Executions that did not succeed (newest last), with their history. */
  failedExecutions(): readonly ExecutionResult[];
  /** Stops pipes (finishing in-flight batches), functions, the sweeper and the emulators. */
  stop(): Promise<void>;
}
