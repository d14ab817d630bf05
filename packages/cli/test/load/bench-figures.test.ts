import { parseBenchArgs } from "../../src/load/bench-args";
import { BENCH_DEFAULTS } from "../../src/load/bench-options";
import { benchFigures } from "../../src/load/bench-figures";
import type { BenchResult } from "../../src/load/bench-report";
import type { E2eCaseResult } from "../../src/load/bench-e2e";

describe("npm run bench -- --write-figures", () => {
  it("is off unless given, and takes a file", () => {
    expect(parseBenchArgs([]).figuresFile).toBeUndefined();
    expect(parseBenchArgs(["--write-figures", "tmp/f.json"]).figuresFile).toBe("tmp/f.json");
  });

  it("takes the invocation mode of the stacks it runs, or leaves the construct's default", () => {
    expect(parseBenchArgs([]).options.invocation).toBeUndefined();
    expect(parseBenchArgs(["--invocation", "per-batch"]).options.invocation).toBe("per-batch");
    expect(parseBenchArgs(["--invocation", "per-record"]).options.invocation).toBe("per-record");
    expect(() => parseBenchArgs(["--invocation", "sometimes"])).toThrow(/invocation/);
  });

  it("one batch takes pollers × batch size ÷ throughput (Little's law): 4 × 10 ÷ 100 msg/s = 400 ms", () => {
    const run = { throughput: 100, dynamoCallsPerMessage: 5.2, messages: 1000, functionInvocations: 101, functionMs: 3030 } as E2eCaseResult["run"];
    const result = {
      options: { ...BENCH_DEFAULTS, pipeConcurrency: 4, duplicateRatio: 0.2 },
      startedAt: "2026-12-01T00:00:00.000Z",
      host: { cpus: 2, node: "v20", loadAverage: [0, 0, 0] },
      cases: [{ batchSize: 10, batchInvocation: true, run } as E2eCaseResult, { batchSize: 1, batchInvocation: false, run: { ...run, throughput: 0, functionInvocations: 0, functionMs: 0 } } as E2eCaseResult],
    } satisfies BenchResult;
    const figures = benchFigures(result);
    expect(figures.kind).toBe("pipeline-figures");
    expect(figures.label).toMatch(/^local CPU figures of this machine .*not AWS latencies$/);
    expect(figures.duplicateRatio).toBe(0.2);
    expect(figures.cases).toEqual([
      // The function's invocations the local cloud counted and timed: 101 for 1,000 messages, 30 ms each.
      { batchSize: 10, executionMsPerBatch: 400, dynamoCallsPerMessage: 5.2, throughput: 100, batchInvocation: true, invocationsPerMessage: 0.101, functionMsPerInvocation: 30 },
      { batchSize: 1, executionMsPerBatch: 0, dynamoCallsPerMessage: 5.2, throughput: 0, batchInvocation: false, invocationsPerMessage: 0, functionMsPerInvocation: 0 },
    ]);
  });
});
