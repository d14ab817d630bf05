import type { LocalCloudStats } from "@effectively-once/local-cloud";
import type { E2eCaseResult } from "../../src/load/bench-e2e";
import { callsPerMessage, floorRatio, perSecond, requestDelta, summarize } from "../../src/load/bench-math";
import { BENCH_DEFAULTS } from "../../src/load/bench-options";
import { formatBench } from "../../src/load/bench-report";
import { buildSoakReport, soakJson } from "../../src/load/soak-report";
import type { SoakResult } from "@effectively-once/local-cloud/harness";
import { SOAK_DEFAULTS } from "@effectively-once/local-cloud/harness";

describe("Module: bench-math", () => {
  it("counts the requests made between two snapshots, per operation and per message", () => {
    // Act
    const delta = requestDelta({ PutItem: 130, GetItem: 10, Scan: 2 }, { PutItem: 30, GetItem: 10, CreateTable: 3 });

    // Assert
    expect(delta).toEqual({ PutItem: 100, Scan: 2 });
    expect(callsPerMessage(delta, 20)).toBeCloseTo(5.1);
    expect(callsPerMessage(delta, 0)).toBe(0);
  });

  it("relates the pipeline's DynamoDB ops/s to the floor", () => {
    expect(floorRatio(100, 5, 1000)).toBeCloseTo(0.5);
    expect(floorRatio(150, 6, 900)).toBeCloseTo(1);
    expect(floorRatio(100, 5, 0)).toBe(0);
    expect(perSecond(300, 2000)).toBe(150);
  });
});

function soakResult(overrides: { lost?: string[]; doubleApplied?: string[]; badTtl?: string[] } = {}): SoakResult {
  const stats = {
    pipes: {},
    outcomes: { processed: 90, duplicate: 30, quarantined: 4, retry: 7, quarantinedByReason: {} },
    functions: { charge: { invocations: 100, coldStarts: 3, errors: 5, timeouts: 1, crashes: 2, throttles: 0, active: 0, idle: 3 } },
    executions: { started: 20, succeeded: 20, failed: 0, timedOut: 0 },
    faults: { seed: "s", total: 12, byKind: { "lambda.crash.after": 2, "dynamodb.throttle": 10 }, byRule: {} },
    visibilityExpiredEarly: 3,
    ttlDeleted: 0,
    dynamodbRequests: { PutItem: 400 },
  } as unknown as LocalCloudStats;
  return {
    options: { ...SOAK_DEFAULTS, messages: 124 },
    mix: { unique: 92, "concurrent-duplicate": 15, "late-duplicate": 15, "payload-conflict": 1, "invalid-json": 1, "missing-field": 0, rejected: 0 },
    faultRules: ["lambda-crash-after-charge p=0.01"],
    verification: {
      sent: 124,
      uniqueKeys: 93,
      applied: 92,
      downstreamCalls: 93,
      repeatedCalls: 1,
      quarantinedByReason: { "invalid-message": 1, "payload-mismatch": 1 },
      lost: overrides.lost ?? [],
      doubleApplied: overrides.doubleApplied ?? [],
      outOfOrder: [],
      latencyMs: { p50: 120, p95: 900, p99: 1500, max: 2100 },
    },
    fates: { invalidMisfiled: [], rejectedMisfiled: [], conflictsDetected: 1 },
    ledger: { items: 92, inProgress: 0, badTtl: overrides.badTtl ?? [] },
    counts: { processed: 90, duplicate: 30, quarantined: 4, retry: 7 },
    stats,
    timings: { bootMs: 1500, publishMs: 1800, settleMs: 2000, runMs: 4000 },
  };
}

describe("Function: buildSoakReport", () => {
  it("passes when every invariant holds, with throughput from first send to settled and faults by kind", () => {
    // Act
    const report = buildSoakReport(soakResult());

    // Assert
    expect(report.ok).toBe(true);
    expect(report.throughput).toBe(62);
    expect(report.faultsByKind).toEqual({ "lambda.crash.after": 2, "dynamodb.throttle": 10, "sqs.visibility-expired-early": 3 });
    expect(report.text).toMatch(/LOST\s+0\s+must be 0/);
    expect(report.text).toMatch(/DOUBLE-APPLIED\s+0\s+must be 0/);
    expect(report.text).toMatch(/latency send → effect p50 \/ p95 \/ p99\s+120 \/ 900 \/ 1,500 ms/);
    expect(report.text).toMatch(/faults injected\s+15/);
    expect(report.text).toContain("soak passed");
  });

  it.each([
    [{ lost: ["m-1", "m-2"] }, "✘ 2 lost"],
    [{ doubleApplied: ["acme#o-1#charge"] }, "✘ 1 double-applied"],
    [{ badTtl: ["acme#o-1/charge"] }, "✘ 1 ledger items without a valid expiresAt"],
  ])("fails when an invariant breaks (%j)", (broken, line) => {
    // Act
    const report = buildSoakReport(soakResult(broken));

    // Assert
    expect(report.ok).toBe(false);
    expect(report.text).toContain(line);
    expect(report.text).toContain("soak FAILED");
  });

  it("puts the figures and checks in the JSON form", () => {
    // Act
    const result = soakResult({ lost: ["m-9"] });
    const json = soakJson(result, buildSoakReport(result)) as { ok: boolean; figures: Record<string, unknown>; checks: { failures: number }[] };

    // Assert
    expect(json.ok).toBe(false);
    expect(json.figures).toMatchObject({ sent: 124, lost: 1, doubleApplied: 0, throughputPerSecond: 62, retried: 7 });
    expect(json.checks[0]).toMatchObject({ failures: 1, examples: ["m-9"] });
  });
});

describe("Function: formatBench", () => {
  it("shows floor, end to end and their ratio side by side per batch size", () => {
    // Arrange
    const floor = { dynamoPutSequential: 500, dynamoPutConcurrent: 1000, concurrency: 32, sqsSend: 8000, sqsReceiveDelete: 6000 };
    const cpu = { wallMs: 10_000, processCpuMs: 15_000, mainCpuMs: 4_000, mainWaitMs: 1_000, otherThreadsMs: 11_000 };
    const run = (throughput: number, functionInvocations = 800, functionMs = 24_000) =>
      ({ messages: 1000, ms: 10_000, throughput, dynamoCalls: { PutItem: 3300, UpdateItem: 1600 }, dynamoCallsPerMessage: 4.9, functionInvocations, functionMs, cpu, lost: 0, doubleApplied: 0 });
    const rounds = [0.38, 0.39, 0.41].map((ratio) => ({ floorOpsPerSecond: 1000, run: run(80), ratio }));
    const rounds10 = [0.57, 0.59, 0.62].map((ratio) => ({ floorOpsPerSecond: 1000, run: run(120), ratio }));
    const cases: E2eCaseResult[] = [
      { batchSize: 1, batchInvocation: false, floor, coldStartMs: 300, run: run(80), rounds, floorRatio: 0.39, ratio: summarize([0.38, 0.39, 0.41]), throughput: summarize([80, 80, 80]), floorSamples: summarize([1000, 1000, 1000]) },
      { batchSize: 10, batchInvocation: true, floor, coldStartMs: 900, run: run(120, 90, 5_400), rounds: rounds10, floorRatio: 0.59, ratio: summarize([0.57, 0.59, 0.62]), throughput: summarize([118, 120, 121]), floorSamples: summarize([990, 1000, 1010]) },
    ];

    // Act
    const text = formatBench({ options: BENCH_DEFAULTS, startedAt: "2026-01-01T00:00:00Z", host: { cpus: 2, node: "20", loadAverage: [1, 1, 1] }, cases });

    // Assert
    expect(text).toMatch(/batch 1, one invocation a record\s+batch 10, one invocation a batch/);
    expect(text).toMatch(/function invocations per message\s+0\.800\s+0\.090/);
    expect(text).toMatch(/function duration per invocation \(mean\)\s+30\.0 ms\s+60\.0 ms/);
    expect(text).toMatch(/DynamoDB conditional PutItem, 32 in flight\s+1,000 ops\/s\s+1,000 ops\/s/);
    expect(text).toMatch(/throughput\s+80\.0 msg\/s\s+120\.0 msg\/s/);
    expect(text).toMatch(/ratio per round\s+0\.38 0\.39 0\.41\s+0\.57 0\.59 0\.62/);
    expect(text).toMatch(/RATIO to the floor: median\s+0\.39\s+0\.59/);
    expect(text).toMatch(/RATIO spread \(every round within\)\s+±5\.1%\s+±5\.1%/);
    expect(text).toMatch(/throughput \(median, spread\)\s+80\.0 msg\/s ±0\.0%\s+120\.0 msg\/s ±1\.7%/);
    expect(text).toMatch(/CPU per message: main thread\s+4\.0 ms/);
    expect(text).toContain("batch 10: PutItem 3.30, UpdateItem 1.60");
  });
});
