import { existsSync, readFileSync } from "node:fs";
import { StackConfigError } from "../cost/errors";
import { readStackFile } from "../cost/stack-config";
import type { DeployedConfig } from "../cost/types";

/** What the planner reads from the synthesized stack: the cost model's view plus the settings that bound concurrency. */
export interface CapacitySettings {
  readonly config: DeployedConfig;
  /** The source queue's visibility timeout: a record the workflow retries stays in flight this long. */
  readonly visibilityTimeoutSeconds: number;
  /** The state machine's TimeoutSeconds: the longest one batch may hold a pipe poller. */
  readonly executionTimeoutSeconds: number;
  /** The function's reserved concurrency; null = it draws on the account's unreserved pool. */
  readonly reservedConcurrency: number | null;
  /** MaxAttempts of the Invoke task's retry of Lambda service errors (throttles included). */
  readonly lambdaRetries: number;
  /** A FIFO source queue (fifo: true) and whether it runs in high-throughput mode; absent = a standard queue. */
  readonly fifo?: { readonly highThroughput: boolean };
  /** One function invocation per batch (`batchInvocation`: the definition has `InvokeBatch`); absent = one per claimed record. */
  readonly batchInvocation?: true;
}

type Body = Record<string, unknown>;

/** Reads the settings from `cdk.tf.json`; `config` may be passed when the caller already has it (tests, in-process synth). */
export function readCapacitySettings(stackFile: string, config: DeployedConfig = readStackFile(stackFile)): CapacitySettings {
  if (!existsSync(stackFile)) throw new StackConfigError(`no synthesized stack at ${stackFile}: synthesize it first (e.g. npx cdktf synth), or leave out --stack-file`);
  const json = JSON.parse(readFileSync(stackFile, "utf8")) as Body;
  return capacitySettingsFrom(json, config, stackFile);
}

export function capacitySettingsFrom(json: Body, config: DeployedConfig, source: string): CapacitySettings {
  const resources = (json.resource ?? {}) as Record<string, Record<string, Body>>;
  // The source queue is the one with a redrive policy (the DLQ has none).
  const queues = Object.values(resources.aws_sqs_queue ?? {}).filter((q) => q.redrive_policy !== undefined);
  if (queues.length !== 1) throw new StackConfigError(`${source}: expected one aws_sqs_queue with a redrive_policy (the source queue), found ${queues.length}`);
  const fn = Object.values(resources.aws_lambda_function ?? {})[0] ?? {};
  const machine = Object.values(resources.aws_sfn_state_machine ?? {})[0] ?? {};
  const definition = JSON.parse(String(machine.definition ?? "{}")) as Body;
  const reserved = fn.reserved_concurrent_executions;
  return {
    config,
    visibilityTimeoutSeconds: Number(queues[0].visibility_timeout_seconds ?? 30),
    executionTimeoutSeconds: Number(definition.TimeoutSeconds ?? 300),
    reservedConcurrency: typeof reserved === "number" && reserved >= 0 ? reserved : null,
    lambdaRetries: invokeRetries(definition),
    ...(queues[0].fifo_queue === true ? { fifo: { highThroughput: queues[0].fifo_throughput_limit === "perMessageGroupId" } } : {}),
    ...((definition.States as Body | undefined)?.InvokeBatch !== undefined ? { batchInvocation: true as const } : {}),
  };
}

/** MaxAttempts of the first Retry that catches Lambda errors, anywhere in the definition. */
function invokeRetries(node: unknown): number {
  if (!node || typeof node !== "object") return 0;
  const body = node as Body;
  if (Array.isArray(body.Retry)) {
    const rule = (body.Retry as Body[]).find((r) => (r.ErrorEquals as string[] | undefined)?.some((e) => e.startsWith("Lambda.")));
    if (rule) return Number(rule.MaxAttempts ?? 3);
  }
  for (const value of Object.values(body)) {
    const found = invokeRetries(value);
    if (found > 0) return found;
  }
  return 0;
}
