/** What the cost model reads from the synthesized stack (`cdk.tf.json`). */
export interface DeployedConfig {
  /** Where the values came from (a path, or "synthesized in-process"). */
  readonly source: string;
  readonly region: string;
  /** The source queue (and so its DLQ) is a FIFO queue: its requests are priced as FIFO requests. */
  readonly fifo?: boolean;
  readonly pipe: {
    readonly batchSize: number;
    readonly maximumBatchingWindowSeconds: number;
    readonly filterPatterns: number;
  };
  readonly stateMachine: {
    readonly type: string;
    /** The Map's MaxConcurrency: records of one batch run at once. */
    readonly maxConcurrency: number;
    readonly logLevel: StateMachineLogLevel;
    readonly includeExecutionData: boolean;
    readonly tracing: boolean;
    readonly definitionBytes: number;
    /** One function invocation per batch (`batchInvocation`: the definition has `InvokeBatch`); absent: one per claimed record. */
    readonly batchInvocation?: true;
  };
  readonly function: {
    readonly name: string;
    readonly memoryMb: number;
    readonly architecture: Architecture;
    readonly timeoutSeconds: number;
    readonly applicationLogLevel: string;
    readonly systemLogLevel: string;
    readonly logFormat: string;
    readonly tracing: boolean;
  };
  /** Lifetime of ledger, idempotency and effect items (IDEMPOTENCY_EXPIRES_AFTER_SECONDS = the ledger retention). */
  readonly retentionSeconds: number;
  readonly tables: {
    readonly ledger: TableConfig;
    readonly idempotency: TableConfig;
    /** The side effect's own table (an EffectJournalTable); absent when the function's downstream is not one. */
    readonly effects?: TableConfig;
  };
  readonly alarms: number;
  /** The metrics the alarms read: CloudWatch bills an alarm per metric it reads (a metric-math alarm per metric in its math). */
  readonly alarmMetrics: number;
  /** Custom metrics the stack publishes (one per log metric filter). */
  readonly customMetrics: number;
  /** Schedule invocations a month (the DLQ keep-alive: each one SQS request). */
  readonly scheduleRunsPerMonth: number;
  readonly dashboards: number;
}

export interface TableConfig {
  readonly name: string;
  readonly billingMode: string;
  readonly pointInTimeRecovery: boolean;
}

export const Architecture = { Arm64: "arm64", X86_64: "x86_64" } as const;
export type Architecture = (typeof Architecture)[keyof typeof Architecture];

export const StateMachineLogLevel = { All: "ALL", Error: "ERROR", Fatal: "FATAL", Off: "OFF" } as const;
export type StateMachineLogLevel = (typeof StateMachineLogLevel)[keyof typeof StateMachineLogLevel];
