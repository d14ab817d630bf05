import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StackConfigError } from "../../src/cost/errors";
import { readStackFile } from "../../src/cost/stack-config";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { CONFIG } from "./fixtures";

describe("Function: readStackFile", () => {
  let defaults: SynthesizedStack;
  let perRecord: SynthesizedStack;
  let tuned: SynthesizedStack;
  beforeAll(() => {
    defaults = synthStack();
    perRecord = synthStack({ batchInvocation: false });
    tuned = synthStack({
      // Per record: two waves of one invocation per batch would need 301 s, over EXPRESS's 300.
      batchInvocation: false,
      batchSize: 4,
      maxConcurrency: 2,
      stateMachineLogLevel: "ALL",
      includeExecutionDataInLogs: true,
      tracing: false,
      // Two waves of two records per batch: the execution timeout covers both (2 × 115 s) and the fate metrics call (2 s).
      executionTimeoutSeconds: 232,
      retentionSeconds: 2 * 86400,
      messageRetentionSeconds: 86400,
      deadLetterRetentionSeconds: 2 * 86400,
      function: { memoryMb: 512, logLevel: "DEBUG" },
    });
  });
  afterAll(() => {
    defaults?.cleanup();
    perRecord?.cleanup();
    tuned?.cleanup();
  });

  it("reads the per-record stack as the fixture the unit tests use, and the default stack as that fixture invoked once per batch (names aside)", () => {
    const config = readStackFile(join(perRecord.stackDir, "cdk.tf.json"));
    const strip = (c: typeof config) => ({ ...c, source: "", function: { ...c.function, name: "" }, stateMachine: { ...c.stateMachine, definitionBytes: 0 }, tables: Object.values(c.tables).map((t) => ({ ...t, name: "" })) });
    expect(strip(config)).toEqual(strip(CONFIG));
    expect(config.tables.ledger.name).toBe("test-ledger");
    expect(config.stateMachine.definitionBytes).toBeGreaterThan(5000);
    // The default: one invocation per batch, nothing else differs.
    expect(strip(readStackFile(join(defaults.stackDir, "cdk.tf.json")))).toEqual(strip({ ...CONFIG, stateMachine: { ...CONFIG.stateMachine, batchInvocation: true } }));
  });

  it("follows the pipeline props: batch, concurrency, log levels, memory, tracing, retention", () => {
    const config = readStackFile(join(tuned.stackDir, "cdk.tf.json"));
    expect(config.pipe.batchSize).toBe(4);
    expect(config.stateMachine.maxConcurrency).toBe(2);
    expect(config.stateMachine.logLevel).toBe("ALL");
    expect(config.stateMachine.includeExecutionData).toBe(true);
    expect(config.stateMachine.tracing).toBe(false);
    expect(config.function.memoryMb).toBe(512);
    expect(config.function.applicationLogLevel).toBe("DEBUG");
    expect(config.retentionSeconds).toBe(2 * 86400);
  });

  it("reads a FIFO stack as FIFO, its batches run one record after another at worst", () => {
    const fifo = synthStack({ fifo: true });
    try {
      const config = readStackFile(join(fifo.stackDir, "cdk.tf.json"));
      expect([config.fifo, config.pipe.batchSize, config.stateMachine.maxConcurrency]).toEqual([true, 2, 1]);
      expect(readStackFile(join(defaults.stackDir, "cdk.tf.json")).fifo).toBeUndefined();
    } finally {
      fifo.cleanup();
    }
  });

  it("names the missing piece when the file is not a synthesized stack", () => {
    const dir = mkdtempSync(join(tmpdir(), "cost-stack-"));
    try {
      expect(() => readStackFile(join(dir, "nope.json"))).toThrow(/no synthesized stack at .*nope.json/);
      writeFileSync(join(dir, "empty.json"), JSON.stringify({ resource: {} }));
      expect(() => readStackFile(join(dir, "empty.json"))).toThrow(StackConfigError);
      expect(() => readStackFile(join(dir, "empty.json"))).toThrow(/expected one aws_pipes_pipe, found 0/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
