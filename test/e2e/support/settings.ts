import { randomBytes } from "node:crypto";
import { E2eSettingsError } from "./errors";

/** Where the suite publishes: the local cloud booted by each test file, or a deployed stack on AWS. */
export const TargetKind = { Local: "local", Aws: "aws" } as const;
export type TargetKind = (typeof TargetKind)[keyof typeof TargetKind];

/** Environment variables the suite reads (all optional). */
export const E2E_ENV = {
  target: "E2E_TARGET",
  outputsFile: "E2E_OUTPUTS_FILE",
  stack: "E2E_STACK",
  runId: "E2E_RUN_ID",
  testTimeoutSeconds: "E2E_TEST_TIMEOUT_SECONDS",
  settleTimeoutSeconds: "E2E_SETTLE_TIMEOUT_SECONDS",
  functionLogs: "E2E_FUNCTION_LOGS",
} as const;

export interface E2eSettings {
  readonly target: TargetKind;
  /** `cdktf deploy --outputs-file` output (aws target). */
  readonly outputsFile: string;
  /** Stack name inside the outputs file; undefined = the only one. */
  readonly stack?: string;
  /** Prefix of every tenant id the suite publishes, so runs never share business keys. */
  readonly runId: string;
  /** Jest timeout of one scenario on the aws target (local scenarios carry their own). */
  readonly awsTestTimeoutMs: number;
  /** How long a scenario waits for its messages to settle; undefined = the target's default (local 20 s). */
  readonly settleTimeoutMs?: number;
  /** Console output of the local cloud's functions. */
  readonly functionLogs: "silent" | "inherit";
  /**
   * AWS_ENDPOINT_URL_SQS, when set (e.g. an SQS-compatible emulator). The SQS client otherwise sends each call to
   * the host of the queue URL, whatever endpoint the environment names; given explicitly, the endpoint wins.
   */
  readonly sqsEndpoint?: string;
}

const RUN_ID = /^[A-Za-z0-9-]{1,40}$/;

function positiveSeconds(env: NodeJS.ProcessEnv, variable: string): number | undefined {
  const raw = env[variable];
  if (raw === undefined || raw === "") return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new E2eSettingsError(variable, `"${raw}" is not a positive number of seconds`);
  }
  return value;
}

/** Reads the E2E_* variables; bad values throw an error naming the variable and the fix. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): E2eSettings {
  const target = (env[E2E_ENV.target] || TargetKind.Local) as TargetKind;
  if (!Object.values(TargetKind).includes(target)) {
    throw new E2eSettingsError(E2E_ENV.target, `"${target}" is not a target: use "local" (default) or "aws"`);
  }
  // A fixed id keeps local runs reproducible (each test file boots a fresh cloud); AWS tables outlive runs.
  const runId = env[E2E_ENV.runId] || (target === TargetKind.Local ? "e2e" : `e2e-${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`);
  if (!RUN_ID.test(runId)) {
    throw new E2eSettingsError(E2E_ENV.runId, `"${runId}" is not a run id: use 1-40 letters, digits or '-'`);
  }
  const functionLogs = env[E2E_ENV.functionLogs] || "silent";
  if (functionLogs !== "silent" && functionLogs !== "inherit") {
    throw new E2eSettingsError(E2E_ENV.functionLogs, `"${functionLogs}" is not a log mode: use "silent" (default) or "inherit"`);
  }
  const settleSeconds = positiveSeconds(env, E2E_ENV.settleTimeoutSeconds);
  return {
    target,
    outputsFile: env[E2E_ENV.outputsFile] || "outputs.json",
    stack: env[E2E_ENV.stack] || undefined,
    runId,
    awsTestTimeoutMs: (positiveSeconds(env, E2E_ENV.testTimeoutSeconds) ?? 1200) * 1000,
    settleTimeoutMs: settleSeconds === undefined ? undefined : settleSeconds * 1000,
    functionLogs,
    sqsEndpoint: env.AWS_ENDPOINT_URL_SQS || undefined,
  };
}
