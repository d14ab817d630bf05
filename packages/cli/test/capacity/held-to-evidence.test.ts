/**
 * The planner held to evidence (docs/capacity.md, "Held to evidence"): on the local cloud with limits set low on
 * purpose (the function's reserved concurrency 2, synchronous Express executions in flight 2, enforced as AWS does),
 * a stepped-rate load finds where throughput stops rising, and that knee must match planCapacity's highest
 * sustainable rate for the same settings, figures and quotas within 20%; past it every message still has exactly
 * one fate (throttled starts are retried by the pipe, never lost or applied twice).
 */
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { findKnee, relativeError, type Knee } from "../../src/capacity/knee";
import { planCapacity, type CapacityPlan } from "../../src/capacity/plan";
import { resolveQuotas } from "../../src/capacity/quotas";
import { readCapacitySettings, type CapacitySettings } from "../../src/capacity/settings";
import type { Figures } from "../../src/capacity/figures";
import { peekDlq, readEffects, verify } from "@effectively-once/local-cloud/harness";
import { checkFates } from "@effectively-once/local-cloud/harness";
import { generateStream, type LoadMessage } from "@effectively-once/local-cloud/harness";
import { checkLedger } from "@effectively-once/local-cloud/harness";
import type { LoadSent } from "@effectively-once/local-cloud/harness";
import { synthLoadStack, type LoadStack } from "@effectively-once/local-cloud/stack";
import { loadProfile } from "@effectively-once/local-cloud/stack";
import { streamContractOf } from "@effectively-once/local-cloud/stack";
import { LoadRecorder, mean, median, runStep, type MeasuredStep } from "./support/stepped-load";

/** The limits, low enough that the knee (~10 msg/s) sits far below the local cloud's own ~100 msg/s. */
const LIMIT = 2;
/** The function's duration, made known: every invocation starts this late (a Lambda delay fault). */
const FUNCTION_MS = 150;
/** Pollers: more than the limit, so starts really are refused and retried. */
const POLLERS = 4;
const STEP_SECONDS = 3;
/**
 * Offered rates as shares of the bound the function alone sets (LIMIT ÷ FUNCTION_MS = 13.3 msg/s; an execution lasts
 * longer than its invocation, so the knee is below it): fixed, so a slow warm-up cannot place every step below the
 * knee, and wide enough that a busy host (knee down to ~6 msg/s) still leaves steps on both sides.
 */
const STEP_SHARES = [0.3, 0.45, 0.6, 0.75, 0.9, 1.05, 1.2];
/** Fast enough that the first cold start overlaps the next message: both environments start (and warm) first. */
const WARM_UP = { rate: 6, seconds: 3 };

let stack: LoadStack;
let cloud: LocalCloud;
let recorder: LoadRecorder;
let settings: CapacitySettings;
const sent: LoadSent[] = [];
const steps: MeasuredStep[] = [];
let knee: Knee | null;
let plan: CapacityPlan;

const quotas = resolveQuotas(undefined, [`sfn.syncConcurrency=${LIMIT}`, `pipes.concurrentBatches=${POLLERS}`]);

/**
 * Figures measured on this run: the executions' wall time and the pipe's time around them, and the function's delay.
 * `average` is the mean for the plan (Little's law), the median for the warm-up's lag (its cold starts are
 * outliers; the lag only shifts the windows).
 */
function figures(executionMs: readonly number[], overheadMs: readonly number[], messages: number, average = mean): Figures {
  return {
    label: "measured on the local cloud (held-to-evidence test)",
    executionMsPerBatch: average(executionMs),
    pipeOverheadMs: average(overheadMs),
    functionMs: FUNCTION_MS,
    batchFunctionMs: FUNCTION_MS,
    dynamoCallScale: 1,
    mix: { duplicateRatio: 0, quarantineRatio: 0, retryRatio: 0, hotKeyShare: 1 / messages },
  };
}

beforeAll(async () => {
  stack = synthLoadStack({ stackName: "knee-pipeline", region: "us-east-1", namePrefix: "knee" }, { batchSize: 1, function: { reservedConcurrency: LIMIT } });
  settings = readCapacitySettings(stack.stackFile);
  cloud = await startLocalCloud({
    stackFile: stack.stackFile,
    faults: { seed: "knee", rules: [{ service: "lambda", id: "function-duration", function: stack.names.functionName, action: "delay", latencyMs: FUNCTION_MS }] },
    pipeConcurrency: POLLERS,
    limits: { syncExpressConcurrency: LIMIT },
    retryVisibilityTimeoutSeconds: 1,
    ttlSweepIntervalMs: 0,
  });
  recorder = new LoadRecorder(cloud);
  let pool: readonly LoadMessage[] = await generateStream(loadProfile(), streamContractOf(cloud.outputs), { messages: 400, duplicateRatio: 0, seed: "knee", runId: "knee" });
  const take = (rate: number, seconds: number) => {
    const slice = pool.slice(0, Math.round(rate * seconds));
    pool = pool.slice(slice.length);
    return slice;
  };
  // Warm-up: both environments started, and one message's time through the pipeline for the windows' lag.
  await runStep(cloud, take(WARM_UP.rate, WARM_UP.seconds), WARM_UP.rate, WARM_UP.seconds, sent);
  await cloud.drain({ timeoutMs: 30_000 });
  const warm = figures(recorder.executionMs, recorder.overheadMs, 400, median);
  const from = recorder.mark();
  const sentSteps = [];
  for (const share of STEP_SHARES) {
    const rate = Math.round((share * LIMIT * 1000) / FUNCTION_MS);
    sentSteps.push(await runStep(cloud, take(rate, STEP_SECONDS), rate, STEP_SECONDS, sent));
  }
  await cloud.drain({ timeoutMs: 60_000 });
  recorder.stop();
  const lagMs = warm.executionMsPerBatch + warm.pipeOverheadMs;
  steps.push(...sentSteps.map((step) => recorder.throughput(step, lagMs)));
  knee = findKnee(steps);
  const finalFigures = figures(recorder.executionMs.slice(from.executions), recorder.overheadMs.slice(from.overheads), sent.length);
  plan = planCapacity(settings, finalFigures, quotas, knee?.rate ?? 1);
  const row = (s: MeasuredStep) => `${s.offered.toFixed(1)} → ${s.throughput.toFixed(1)} msg/s`;
  process.stdout.write(
    `held to evidence: steps ${steps.map(row).join(", ")}; knee ${knee?.rate.toFixed(1)} msg/s; planner ${plan.maxSustainableRate} msg/s ` +
      `(${plan.saturatesFirst.id}; execution ${finalFigures.executionMsPerBatch.toFixed(1)} ms, pipe ${finalFigures.pipeOverheadMs.toFixed(1)} ms); ` +
      `throttled starts ${cloud.stats().syncExpress?.throttled}\n`,
  );
}, 240_000);

afterAll(async () => {
  await cloud?.stop();
  stack?.cleanup();
});

describe("capacity planner held to evidence (limits 2 and 2, a 150 ms function)", () => {
  it("reads the function's reserved concurrency from the stack and predicts the synchronous executions saturate first", () => {
    expect(settings.reservedConcurrency).toBe(LIMIT);
    expect(plan.saturatesFirst.id).toBe("sfn-concurrency");
  });

  it("finds a knee: throughput tracks the offered rate below it and stays flat above it", () => {
    expect(knee).not.toBeNull();
    expect(knee!.tracking.length).toBeGreaterThanOrEqual(1);
    expect(knee!.saturated.length).toBeGreaterThanOrEqual(2);
    // Stopped rising: the highest step offered a quarter more than the knee and got no more than a fifth above it.
    const top = steps[steps.length - 1];
    expect(top.offered).toBeGreaterThanOrEqual(1.25 * knee!.rate);
    expect(top.throughput).toBeLessThanOrEqual(1.2 * knee!.rate);
  });

  it("matches the planner's highest sustainable rate within 20%", () => {
    expect(relativeError(knee!.rate, plan.maxSustainableRate)).toBeLessThanOrEqual(0.2);
  });

  it("really throttled: StartSyncExecution refused starts and the pipe retried them; Lambda never throttled", () => {
    const stats = cloud.stats();
    expect(stats.syncExpress).toMatchObject({ limit: LIMIT, inFlight: 0 });
    expect(stats.syncExpress!.throttled).toBeGreaterThan(0);
    const pipe = Object.values(stats.pipes)[0];
    expect(pipe.executions.throttled).toBe(stats.syncExpress!.throttled);
    expect(pipe.recordsLeftForRetry).toBe(0);
    expect(Object.values(stats.functions).map((f) => f.throttles)).toEqual([0]);
  });

  it("loses nothing and applies nothing twice past the knee", async () => {
    const [effects, dlq, ledger] = await Promise.all([
      readEffects(cloud.clients.dynamodb, cloud.outputs.effects_table_name as string),
      peekDlq(cloud.clients.sqs, cloud.outputs.dlq_url as string, { max: sent.length * 2 }),
      checkLedger(cloud.clients.dynamodb, cloud.outputs.ledger_table_name as string, { retentionSeconds: DEFAULTS.retentionSeconds }),
    ]);
    const verification = verify(sent, effects, dlq);
    expect(verification.lost).toEqual([]);
    expect(verification.doubleApplied).toEqual([]);
    expect(verification.applied).toBe(sent.length);
    expect(verification.repeatedCalls).toBe(0);
    expect(dlq).toEqual([]);
    expect(checkFates(sent, dlq)).toEqual({ invalidMisfiled: [], rejectedMisfiled: [], conflictsDetected: 0 });
    expect(ledger).toMatchObject({ items: sent.length, inProgress: 0, badTtl: [] });
  });
});
