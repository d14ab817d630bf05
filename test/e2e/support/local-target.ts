import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalCloud, type EarlyVisibilityExpiry, type LocalCloud } from "@effectively-once/local-cloud";
import type { FaultPlanSpec } from "@effectively-once/local-cloud/emulators";
import { literalOutputs, loadStackFile } from "@effectively-once/local-cloud/emulators";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import type { StackConfig } from "@effectively-once/pipeline";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { synthStack } from "@effectively-once/local-cloud/stack";
import { createDeliveryLog } from "./delivery-log";
import { TEST_WINDOWS } from "./test-windows";
import type { E2eSettings } from "./settings";
import { OUTPUT_NAMES, stackNamesFromOutputs, type StackNames } from "./stack-names";
import type { E2eTarget } from "./target";

export const E2E_STACK: StackConfig = { stackName: "e2e-pipeline", region: "us-east-1", namePrefix: "e2e" };

/** Names known before the cloud boots (tables, function, operation), for fault rules. */
export type SynthesizedNames = Pick<StackNames, "ledgerTable" | "idempotencyTable" | "effectsTable" | "functionName" | "operation">;

export interface LocalTargetOptions {
  /** Construct props over {@link TEST_WINDOWS}. */
  readonly overrides?: PipelineOverrides;
  /** The seeded fault plan, built from the synthesized names. */
  readonly faults?: (names: SynthesizedNames) => FaultPlanSpec;
  /** Early visibility expiry of the pipe's receives (built when the cloud starts, like `faults`). */
  readonly expireVisibilityEarly?: () => EarlyVisibilityExpiry;
}

/**
 * How long a scenario waits for its messages to settle on the local cloud (E2E_SETTLE_TIMEOUT_SECONDS overrides): past
 * the failures suite's timed-out execution (34 s, the worst batch invoked once) and the batch's redelivery.
 */
const SETTLE_TIMEOUT_MS = 60_000;

/** Synthesizes the payments stack into a temp folder, boots the local cloud on it and wraps it as a target. */
export async function openLocalTarget(options: LocalTargetOptions, settings: E2eSettings): Promise<E2eTarget> {
  const overrides = mergeOverrides(TEST_WINDOWS, options.overrides ?? {});
  const outdir = mkdtempSync(join(tmpdir(), "e2e-stack-"));
  let cloud: LocalCloud | undefined;
  try {
    const { stackFile } = synthStack(E2E_STACK, { outdir, overrides });
    cloud = await startLocalCloud({
      stackFile,
      // Local deviation: failed records reappear after 1 s instead of the visibility timeout.
      retryVisibilityTimeoutSeconds: 1,
      // TTL sweeps only when a scenario asks (retention), so expired items stay until then, as lazily as on AWS.
      ttlSweepIntervalMs: 0,
      functionLogs: settings.functionLogs,
      faults: options.faults?.(synthesizedNames(stackFile)),
      expireVisibilityEarly: options.expireVisibilityEarly?.(),
    });
    return wrapCloud(cloud, overrides, settings.settleTimeoutMs ?? SETTLE_TIMEOUT_MS, () => rmSync(outdir, { recursive: true, force: true }));
  } catch (error) {
    await cloud?.stop();
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

function wrapCloud(cloud: LocalCloud, overrides: PipelineOverrides, settleTimeoutMs: number, removeStack: () => void): E2eTarget {
  const names = stackNamesFromOutputs(cloud.outputs, "the local cloud's outputs");
  const documents = DynamoDBDocumentClient.from(cloud.clients.dynamodb);
  const deliveries = createDeliveryLog((listener) => cloud.subscribe(listener));
  const retentionSeconds = overrides.retentionSeconds ?? DEFAULTS.retentionSeconds;
  return {
    kind: "local",
    names,
    clients: { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, documents },
    settleTimeoutMs,
    pollIntervalMs: 50,
    receiveWaitSeconds: 0,
    quiesce: (timeoutMs) => cloud.drain({ timeoutMs }),
    faults: {
      injected: () => {
        const stats = cloud.stats();
        const byKind: Record<string, number> = { ...stats.faults?.byKind };
        if (stats.visibilityExpiredEarly > 0) byKind["sqs.visibility-expired-early"] = stats.visibilityExpiredEarly;
        return byKind;
      },
    },
    deliveries,
    retention: {
      retentionSeconds,
      messageRetentionSeconds: overrides.messageRetentionSeconds ?? DEFAULTS.messageRetentionSeconds,
      sweep: async () => (await cloud.sweepTtl()).deleted,
      advance: (seconds) => cloud.clock.advance(seconds),
    },
    diagnostics: () => {
      const stats = cloud.stats();
      const failed = cloud.failedExecutions().map((run) => `${run.status} ${run.error ?? ""} ${(run.cause ?? "").slice(0, 200)}`);
      return JSON.stringify({ outcomes: stats.outcomes, executions: stats.executions, functions: stats.functions, faults: stats.faults?.byKind, failed });
    },
    close: async () => {
      deliveries.stop();
      await cloud.stop();
      removeStack();
    },
  };
}

/** Resolves the outputs that name tables and the function from the synthesized JSON (literal resource attributes). */
export function synthesizedNames(stackFile: string): SynthesizedNames {
  const fields = ["ledgerTable", "idempotencyTable", "effectsTable", "functionName", "operation"] as const;
  const outputs = literalOutputs(loadStackFile(stackFile), fields.map((field) => OUTPUT_NAMES[field]));
  return Object.fromEntries(fields.map((field) => [field, outputs[OUTPUT_NAMES[field]]])) as unknown as SynthesizedNames;
}

function mergeOverrides(base: PipelineOverrides, extra: PipelineOverrides): PipelineOverrides {
  return { ...base, ...extra, function: { ...base.function, ...extra.function } };
}
