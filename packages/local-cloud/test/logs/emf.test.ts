import { createFateMetrics } from "@effectively-once/pipeline/handler";
import { emfDatapoints } from "../../src/logs/emf";
import { levelFiltered } from "../../src/lambda/log-sink";
import type { LambdaLogs } from "../../src/lambda/types";

type LineSink = Extract<LambdaLogs, (...args: never[]) => void>;

/** The function's invocation line as Powertools Logger writes it, with the fate metrics merged in (pipeline-handler.ts). */
function invocationLine(count: (fates: ReturnType<typeof createFateMetrics>) => void): string {
  const fates = createFateMetrics({ serviceName: "payments", now: () => 1_700_000_060_000 });
  count(fates);
  let fields: Record<string, unknown> = {};
  fates.flush((f) => (fields = f));
  return JSON.stringify({ level: "INFO", message: "invocation applied", timestamp: "2026-12-05T08:00:00.000Z", service: "payments", businessKey: '["t1","o-1"]', outcome: "applied", ...fields });
}

describe("Function: emfDatapoints", () => {
  it("reads one datapoint per record from the function's line, under its service dimension", () => {
    // Arrange: one invocation that carried three records (two applied with a send time, one duplicate).
    const line = invocationLine((f) => {
      f.applied({ firstSentAt: 1_700_000_000_000 });
      f.applied({ firstSentAt: 1_700_000_030_000 });
      f.duplicate();
    });

    // Act
    const points = emfDatapoints(line);

    // Assert
    const of = (name: string) => points.filter((p) => p.metricName === name).map((p) => p.value);
    expect(of("Applied")).toEqual([1, 1]);
    expect(of("Duplicate")).toEqual([1]);
    expect(of("SendToEffectMs")).toEqual([60_000, 30_000]);
    for (const p of points) expect(p).toMatchObject({ namespace: "EffectivelyOnce", dimensions: [["service", "payments"]], at: expect.any(Number) });
  });

  it.each([
    ["a plain log line", '{"level":"INFO","message":"invocation failed"}'],
    ["text", "START RequestId: 1"],
    ["a directive whose dimension is not a string at the root", '{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"N","Dimensions":[["service"]],"Metrics":[{"Name":"M"}]}]},"M":1}'],
    ["a metric name that is a prototype member", '{"_aws":{"Timestamp":1,"CloudWatchMetrics":[{"Namespace":"N","Dimensions":[],"Metrics":[{"Name":"constructor"}]}]}}'],
  ])("gives nothing for %s", (_, line) => {
    expect(emfDatapoints(line)).toEqual([]);
  });
});

describe("Function: levelFiltered, on the function's fate metrics above INFO", () => {
  /** What createFateMetrics writes to stdout (Powertools Metrics' own line) as the wrapper flushes it at `level`. */
  function ownLine(level: string): string {
    const fates = createFateMetrics({ serviceName: "payments", now: () => 1_700_000_060_000 });
    fates.applied({ firstSentAt: 1_700_000_000_000 });
    const written: string[] = [];
    const write = process.stdout.write;
    process.stdout.write = ((chunk: string | Uint8Array) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      fates.flush({ level });
    } finally {
      process.stdout.write = write;
    }
    return written.join("").trim();
  }

  it.each(["WARN", "ERROR"])("keeps the line at %s (Lambda counts a line without a level or a valid timestamp as INFO), and CloudWatch still reads its metrics", (level) => {
    // Arrange
    const kept: string[] = [];
    const line = ownLine(level);

    // Act
    const sink = levelFiltered((l) => void kept.push(l), level) as LineSink;
    sink(line, { functionName: "f", environmentId: "e", stream: "stdout" });

    // Assert
    expect(JSON.parse(line)).toMatchObject({ level, service: "payments", Applied: 1 });
    expect(kept).toEqual([line]);
    expect(emfDatapoints(line).map((p) => [p.metricName, p.value])).toEqual([["Applied", 1], ["SendToEffectMs", 60_000]]);
  });

  it.each<[string, Record<string, unknown>, boolean]>([
    ["a WARN line with Powertools Logger's timestamp (UTC)", { level: "WARN", timestamp: "2026-12-05T08:00:00.000Z" }, true],
    ["a WARN line with an offset timestamp (Powertools Logger under a TZ)", { level: "WARN", timestamp: "2026-12-05T09:00:00.000+01:00" }, true],
    ["a WARN line without a timestamp", { level: "WARN" }, false],
    ["a WARN line whose timestamp is epoch milliseconds", { level: "WARN", timestamp: 1_700_000_060_000 }, false],
    ["a WARN line whose timestamp has no zone", { level: "WARN", timestamp: "2026-12-05T08:00:00" }, false],
    ["a WARN line whose timestamp is no date", { level: "WARN", timestamp: "2026-13-45T08:00:00Z" }, false],
  ])("at WARN, %s: kept only with a valid RFC 3339 timestamp (Lambda counts the line as INFO otherwise)", (_case, fields, keptExpected) => {
    // Arrange
    const kept: string[] = [];
    const line = JSON.stringify({ ...fields, message: "m" });

    // Act
    (levelFiltered((l) => void kept.push(l), "WARN") as LineSink)(line, { functionName: "f", environmentId: "e", stream: "stdout" });

    // Assert
    expect(kept).toEqual(keptExpected ? [line] : []);
  });
});
