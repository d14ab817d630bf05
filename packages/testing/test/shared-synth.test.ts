/** The default tier's shared synths (packages/testing/src/synth.ts): one per distinct input, read-only, then discarded. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_STACK } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

describe("Function: synthStack, shared within a run", () => {
  const previous = process.env.PIPELINE_TEST_SYNTHS;
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "shared-synth-test-"));
    process.env.PIPELINE_TEST_SYNTHS = folder;
  });
  afterAll(() => {
    if (previous === undefined) delete process.env.PIPELINE_TEST_SYNTHS;
    else process.env.PIPELINE_TEST_SYNTHS = previous;
    rmSync(folder, { recursive: true, force: true });
  });

  it("synthesizes equal inputs once and serves every later call the same files, which cleanup() keeps", () => {
    const first = synthStack({ tracing: false });
    first.cleanup();
    const second = synthStack({ tracing: false });
    expect(second.stackDir).toBe(first.stackDir);
    expect(existsSync(join(second.stackDir, "cdk.tf.json"))).toBe(true);
    expect(second.json).toEqual(first.json);
    expect(second.json).not.toBe(first.json);
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it("keeps other inputs apart, and synthesizes afresh what JSON cannot key", () => {
    const shared = synthStack({ tracing: false });
    const other = synthStack({ tracing: false }, { ...TEST_STACK, region: "eu-west-3" });
    expect(other.stackDir).not.toBe(shared.stackDir);
    expect(JSON.stringify(other.json)).toContain("eu-west-3");
    const unkeyable = synthStack({ tracing: false, logRetentionDays: undefined });
    try {
      expect(unkeyable.stackDir.startsWith(folder)).toBe(false);
    } finally {
      unkeyable.cleanup();
    }
    expect(readdirSync(folder)).toHaveLength(2);
  });
});
