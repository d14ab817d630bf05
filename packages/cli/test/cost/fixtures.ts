import { DEFAULT_ASSUMPTIONS, type Assumptions } from "../../src/cost/assumptions";
import type { DeployedConfig } from "../../src/cost/types";

/** The default stack's settings as `cdk.tf.json` gives them (checked against a real synth in stack-config.test.ts). */
export const CONFIG: DeployedConfig = {
  source: "fixture",
  region: "us-east-1",
  pipe: { batchSize: 10, maximumBatchingWindowSeconds: 1, filterPatterns: 0 },
  stateMachine: { type: "EXPRESS", maxConcurrency: 10, logLevel: "ERROR", includeExecutionData: false, tracing: true, definitionBytes: 12773 },
  function: {
    name: "payments-charge",
    memoryMb: 256,
    architecture: "arm64",
    timeoutSeconds: 10,
    applicationLogLevel: "INFO",
    systemLogLevel: "WARN",
    logFormat: "JSON",
    tracing: true,
  },
  retentionSeconds: 1209600,
  tables: {
    ledger: { name: "payments-ledger", billingMode: "PAY_PER_REQUEST", pointInTimeRecovery: true },
    idempotency: { name: "payments-idempotency", billingMode: "PAY_PER_REQUEST", pointInTimeRecovery: true },
    effects: { name: "payments-effects", billingMode: "PAY_PER_REQUEST", pointInTimeRecovery: false },
  },
  alarms: 16,
  alarmMetrics: 31,
  customMetrics: 2,
  scheduleRunsPerMonth: 730,
  dashboards: 1,
};

export const A: Assumptions = DEFAULT_ASSUMPTIONS;

export const MILLION = 1_000_000;
