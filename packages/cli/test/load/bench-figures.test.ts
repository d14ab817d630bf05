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

  it("one batch takes pollers × batch size ÷ throughput (Little's law): 4 × 10 ÷ 100 msg/s = 400 ms", () => {
    const run = { throughput: 100, dynamoCallsPerMessage: 5.2 } as E2eCaseResult["run"];
    const result = {
      options: { ...BENCH_DEFAULTS, pipeConcurrency: 4, duplicateRatio: 0.2 },
      startedAt: "2026-12-01T00:00:00.000Z",
      host: { cpus: 2, node: "v20", loadAverage: [0, 0, 0] },
      cases: [{ batchSize: 10, run } as E2eCaseResult, { batchSize: 1, run: { ...run, throughput: 0 } } as E2eCaseResult],
    } satisfies BenchResult;
    const figures = benchFigures(result);
    expect(figures.kind).toBe("pipeline-figures");
    expect(figures.label).toMatch(/^local CPU figures of this machine .*not AWS latencies$/);
    expect(figures.duplicateRatio).toBe(0.2);
    expect(figures.cases).toEqual([
      { batchSize: 10, executionMsPerBatch: 400, dynamoCallsPerMessage: 5.2, throughput: 100 },
      { batchSize: 1, executionMsPerBatch: 0, dynamoCallsPerMessage: 5.2, throughput: 0 },
    ]);
  });
});
