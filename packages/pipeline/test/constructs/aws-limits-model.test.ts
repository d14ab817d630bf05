/**
 * The limits the synth-time rules enforce (packages/pipeline/src/constructs/aws-limits.ts) are AWS's own: each one
 * that cites an API model shape equals that shape in the vendored models (packages/testing/src/aws-models), so a regenerated model
 * that moves a limit fails here, naming it.
 */
import {
  ALARM_ACTION_MAX_CHARS,
  ALARM_ACTIONS_MAX,
  LAMBDA_APPLICATION_LOG_LEVELS,
  LAMBDA_MEMORY_MB,
  LAMBDA_TIMEOUT_SECONDS,
  LAMBDA_VARIABLE_NAME,
  LOG_RETENTION_DAYS,
  NAME_LIMITS,
  PIPE_FILTER_PATTERN_MAX_CHARS,
  PIPE_FILTERS_MAX,
  STATE_MACHINE_LOG_LEVELS,
  type LimitSource,
} from "../../src/constructs/aws-limits";
import * as limits from "../../src/constructs/aws-limits";
import { LambdaRuntime } from "../../src/constructs/lambda-runtime";
import { PIPE_LOG_LEVEL } from "../../src/constructs/pipe";
import { MODEL_FILES, shapeOf, type ModelFile } from "@effectively-once/testing";

/** Code points that tell character classes apart: printable ASCII, a few controls and non-ASCII letters. */
const PROBES = [...Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)), "\t", "\n", "\u0001", "é", "ß", "中", "😀"];

/** A whole-name regex of botocore's (`[\w+=,.@-]+`, no anchors), as JavaScript reads it. */
const modelRegex = (pattern: string) => new RegExp(`^(?:${pattern})$`, "u");

/** The characters one pattern accepts and the other refuses (none: they agree on every probe). */
function disagreement(ours: RegExp, theirs: RegExp): string[] {
  return PROBES.filter((c) => ours.test(c.repeat(3)) !== theirs.test(c.repeat(3)));
}

/** `lambda MemorySize, Timeout` → [["lambda", "MemorySize"], ["lambda", "Timeout"]]. */
function modelShapes(source: LimitSource): [ModelFile, string][] {
  if (!source.model) return [];
  const [file, ...shapes] = source.model.split(/[ ,]+/);
  return shapes.map((s) => [file as ModelFile, s]);
}

describe("AWS limits against the vendored API models", () => {
  it("cites only shapes the vendored models hold", () => {
    const sources = Object.values(limits).filter((v): v is LimitSource => typeof v === "object" && v !== null && ("model" in v || "doc" in v));
    const all = [...sources, ...Object.values(NAME_LIMITS).map((l) => l.source)];
    expect(all.length).toBeGreaterThan(15);
    for (const source of all) {
      for (const [file, shape] of modelShapes(source)) {
        expect(MODEL_FILES).toContain(file);
        expect(() => shapeOf(file, shape)).not.toThrow();
      }
    }
  });

  it.each(Object.entries(NAME_LIMITS).filter(([, l]) => l.source.model))("%s: the same length and characters as the model", (_kind, limit) => {
    const [[file, shapeName]] = modelShapes(limit.source);
    const shape = shapeOf(file, shapeName);
    expect(limit.min).toBe(shape.min ?? 1);
    if (file === "lambda") {
      // The model's FunctionName also takes ARNs (max 140); a bare name is its last group, at most 64 (the API reference).
      expect(shape.pattern).toContain("([a-zA-Z0-9-_]+)");
      expect(disagreement(limit.pattern, modelRegex("[a-zA-Z0-9-_]+"))).toEqual([]);
      expect(limit.max).toBe(64);
      return;
    }
    expect(limit.max).toBe(shape.max);
    if (shape.pattern) expect(disagreement(limit.pattern, modelRegex(shape.pattern))).toEqual([]);
  });

  it("CloudWatch Logs' retention values are the model's (listed in its Days documentation)", () => {
    const doc = shapeOf("logs", "Days").documentation!;
    const listed = /Possible values are: ([\d, and]+)\./.exec(doc)![1].split(/,\s*(?:and\s*)?|\s+and\s+/).map(Number);
    expect([...LOG_RETENTION_DAYS]).toEqual(listed);
  });

  it("Lambda: variable names, runtimes, log levels, memory and timeout as the model has them", () => {
    expect(disagreement(LAMBDA_VARIABLE_NAME, modelRegex(shapeOf("lambda", "EnvironmentVariableName").pattern!))).toEqual([]);
    for (const sample of ["A", "AB", "A1", "1A", "A-B", "a_b", "_A"]) expect([sample, LAMBDA_VARIABLE_NAME.test(sample)]).toEqual([sample, modelRegex(shapeOf("lambda", "EnvironmentVariableName").pattern!).test(sample)]);
    expect(shapeOf("lambda", "Runtime").enum).toEqual(expect.arrayContaining(Object.values(LambdaRuntime)));
    expect([...LAMBDA_APPLICATION_LOG_LEVELS]).toEqual(shapeOf("lambda", "ApplicationLogLevel").enum);
    expect(LAMBDA_MEMORY_MB.min).toBe(shapeOf("lambda", "MemorySize").min);
    expect(LAMBDA_MEMORY_MB.max).toBeLessThanOrEqual(shapeOf("lambda", "MemorySize").max!);
    expect(LAMBDA_TIMEOUT_SECONDS.min).toBe(shapeOf("lambda", "Timeout").min);
    // AWS accepts a reservation of 0; the construct refuses it on purpose (every message would end in the DLQ).
    expect(shapeOf("lambda", "ReservedConcurrentExecutions").min).toBe(0);
  });

  it("Pipes, Step Functions and CloudWatch: filters, log levels and alarm actions as the models have them", () => {
    expect(PIPE_FILTERS_MAX).toBe(shapeOf("pipes", "FilterList").max);
    expect(PIPE_FILTER_PATTERN_MAX_CHARS).toBe(shapeOf("pipes", "EventPattern").max);
    expect(shapeOf("pipes", "LogLevel").enum).toContain(PIPE_LOG_LEVEL);
    // "No execution data" is an empty list: the only value the list takes is ALL.
    expect(shapeOf("pipes", "IncludeExecutionDataOption").enum).toEqual(["ALL"]);
    expect([...STATE_MACHINE_LOG_LEVELS]).toEqual(shapeOf("stepfunctions", "LogLevel").enum);
    expect(ALARM_ACTIONS_MAX).toBe(shapeOf("cloudwatch", "ResourceList").max);
    expect(ALARM_ACTION_MAX_CHARS).toBe(shapeOf("cloudwatch", "ResourceName").max);
  });
});
