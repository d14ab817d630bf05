/** Target resolution: local state file, deployed outputs file (every shape cdktf and terraform write), overrides. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeStateFile } from "@effectively-once/contract";
import { readOutputsFile, resolveTarget, TargetError, UsageError } from "../src";
import { synthStack } from "@effectively-once/testing/stack";

const dir = mkdtempSync(join(tmpdir(), "ops-target-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, value: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
};
const state = (name: string, pid: number) =>
  writeStateFile(
    {
      version: 1,
      pid,
      startedAt: new Date().toISOString(),
      stackFile: "x/cdk.tf.json",
      region: "us-east-1",
      endpoints: { sqs: "http://127.0.0.1:1111", dynamodb: "http://127.0.0.1:2222" },
      outputs: { queue_url: "http://sqs.us-east-1.localhost:1111/000000000000/q", operation: "charge" },
    },
    join(dir, name),
  );

describe("resolveTarget", () => {
  it("needs exactly one target, named by an option", () => {
    expect(() => resolveTarget({})).toThrow(UsageError);
    expect(() => resolveTarget({})).toThrow(/--local .* or --outputs-file/);
    expect(() => resolveTarget({ local: true, outputsFile: "o.json" })).toThrow(UsageError);
    expect(() => resolveTarget({ local: true, stack: "s" })).toThrow(/--stack selects a stack in --outputs-file/);
  });

  it("local: a missing state file or a dead process says how to start the cloud", () => {
    expect(() => resolveTarget({ stateFile: join(dir, "none.json") })).toThrow(TargetError);
    expect(() => resolveTarget({ stateFile: join(dir, "none.json") })).toThrow(/no local cloud is running .*: start it with `npm start -- --serve`/);
    const exited = spawnSync(process.execPath, ["-e", ""]).pid!;
    const dead = state("dead.json", exited);
    expect(() => resolveTarget({ stateFile: dead })).toThrow(new RegExp(`\\(pid ${exited}\\) is not running any more: start it with`));
    expect(() => resolveTarget({ stateFile: file("other.json", { version: 2 }) })).toThrow(/is not a local cloud state file/);
    expect(() => resolveTarget({ stateFile: file("broken.json", "{") })).toThrow(TargetError);
  });

  it("local: endpoints and outputs from the state file; explicit endpoints win", () => {
    const live = state("live.json", process.pid);
    expect(resolveTarget({ stateFile: live })).toMatchObject({
      kind: "local",
      region: "us-east-1",
      endpoints: { sqs: "http://127.0.0.1:1111", dynamodb: "http://127.0.0.1:2222" },
      outputs: { operation: "charge" },
    });
    expect(resolveTarget({ stateFile: live, sqsEndpoint: "http://127.0.0.1:9/" }).endpoints).toEqual({ sqs: "http://127.0.0.1:9", dynamodb: "http://127.0.0.1:2222" });
    expect(() => resolveTarget({ stateFile: live, dynamodbEndpoint: "localhost:8000" })).toThrow(/--dynamodb-endpoint "localhost:8000" must be an http\(s\) URL/);
    expect(() => resolveTarget({ stateFile: live, sqsEndpoint: "not a url" })).toThrow(/--sqs-endpoint "not a url" is not a URL/);
  });

  it("deployed: region from the outputs (or --region), AWS default endpoints unless overridden", () => {
    const outputs = file("one.json", { "payments-pipeline": { region: "eu-west-1", dlq_url: "https://sqs.eu-west-1.amazonaws.com/1/dlq" } });
    expect(resolveTarget({ outputsFile: outputs })).toMatchObject({ kind: "deployed", region: "eu-west-1", endpoints: {}, label: expect.stringContaining("payments-pipeline") });
    expect(resolveTarget({ outputsFile: outputs, region: "eu-central-1" }).region).toBe("eu-central-1");
    const noRegion = file("no-region.json", { s: { dlq_url: "u" } });
    expect(() => resolveTarget({ outputsFile: noRegion })).toThrow(/has no "region" output: pass --region/);
  });
});

describe("readOutputsFile", () => {
  it("reads what `cdktf deploy --outputs-file` writes for this stack: outputs nested by construct id", () => {
    const synth = synthStack();
    try {
      const mapping = (synth.json as unknown as { "//": { outputs: Record<string, unknown> } })["//"].outputs;
      // cdktf replaces each leaf (the Terraform output name) with the output's value, keeping the construct nesting.
      const values = (node: unknown): unknown =>
        typeof node === "string" ? `value-of-${node}` : Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, values(v)]));
      const written = file("cdktf.json", values(mapping));
      const { stackName, outputs } = readOutputsFile(written);
      expect(stackName).toBe("test-pipeline");
      const terraformNames = Object.keys(synth.json.output);
      expect(Object.keys(outputs).sort()).toEqual(terraformNames.sort());
      for (const name of terraformNames) expect(outputs[name]).toBe(`value-of-${name}`);
    } finally {
      synth.cleanup();
    }
  });

  it("also reads flat outputs and `terraform output -json`, with or without the stack level", () => {
    expect(readOutputsFile(file("flat.json", { s1: { queue_url: "q", region: "r" } }))).toEqual({ stackName: "s1", outputs: { queue_url: "q", region: "r" } });
    expect(readOutputsFile(file("tf.json", { queue_url: { value: "q", type: "string", sensitive: false } })).outputs).toEqual({ queue_url: "q" });
    expect(readOutputsFile(file("bare.json", { queue_url: "q" })).outputs).toEqual({ queue_url: "q" });
  });

  it("several stacks need --stack; unknown stacks, missing and broken files are one clear error", () => {
    const two = file("two.json", { a: { queue_url: "qa" }, b: { queue_url: "qb" } });
    expect(() => readOutputsFile(two)).toThrow(UsageError);
    expect(() => readOutputsFile(two)).toThrow(/holds several stacks \(a, b\): pick one with --stack/);
    expect(readOutputsFile(two, "b").outputs).toEqual({ queue_url: "qb" });
    expect(() => readOutputsFile(two, "c")).toThrow(/has no stack "c"; it holds: a, b/);
    expect(() => readOutputsFile(join(dir, "missing.json"))).toThrow(/cannot read the outputs file .*missing\.json \(ENOENT\): write it with `cdktf deploy --outputs-file/);
    expect(() => readOutputsFile(file("bad.json", "not json"))).toThrow(/is not JSON/);
    expect(() => readOutputsFile(file("array.json", []))).toThrow(/must hold a JSON object/);
  });
});
