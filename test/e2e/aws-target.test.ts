/**
 * The aws target's code path, proven offline: an outputs file exactly as `cdktf deploy --outputs-file` writes it
 * (outputs nested by construct path, keyed by construct id), read back into the stack's names; then the aws
 * target (AWS SDK default credential chain) against a stack the local cloud serves, given the emulators' endpoints.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { AWS_PACING, openAwsTarget } from "./support/aws-target";
import { DlqCollector } from "./support/dlq";
import { E2eSettingsError, StackOutputsError } from "./support/errors";
import { E2E_STACK } from "./support/local-target";
import { TEST_WINDOWS } from "./support/test-windows";
import { payment } from "./support/messages";
import { readStackOutputs } from "./support/outputs-file";
import { publish } from "./support/publish";
import { readSettings } from "./support/settings";
import { settle } from "./support/settle";
import { stackNamesFromOutputs } from "./support/stack-names";
import type { E2eTarget } from "./support/target";

type Mapping = { [id: string]: string | Mapping };

/** What cdktf's `--outputs-file` writes: the `"//".outputs` construct-path mapping filled with output values. */
function cdktfOutputsFile(mapping: Mapping, values: Record<string, unknown>): unknown {
  const fill = (node: Mapping): unknown =>
    Object.fromEntries(Object.entries(node).map(([id, value]) => [id, typeof value === "string" ? values[value] : fill(value)]));
  return fill(mapping);
}

let dir: string;
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "e2e-outputs-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("Function: readStackOutputs", () => {
  it("reads cdktf's nested construct-id file back to output names", () => {
    const path = file("nested.json", {
      "payments-pipeline": { "effects-table-name": "p-effects", pipeline: { "output-queue_url": "https://q", "output-operation": "charge" } },
    });
    expect(readStackOutputs(path)).toEqual({ effects_table_name: "p-effects", queue_url: "https://q", operation: "charge" });
  });

  it("asks for E2E_STACK when the file holds several stacks", () => {
    const path = file("two.json", { a: { queue_url: "1" }, b: { queue_url: "2" } });
    expect(() => readStackOutputs(path)).toThrow(/several stacks \(a, b\): pick one with E2E_STACK/);
    expect(readStackOutputs(path, "b")).toEqual({ queue_url: "2" });
  });

  it("says how to produce the file when it is missing", () => {
    expect(() => readStackOutputs(join(dir, "absent.json"))).toThrow(StackOutputsError);
    expect(() => readStackOutputs(join(dir, "absent.json"))).toThrow(/cdktf deploy --outputs-file.*E2E_OUTPUTS_FILE/);
  });

  it("names every output the suite needs and does not find", () => {
    expect(() => stackNamesFromOutputs({ queue_url: "q", region: "r" }, "outputs.json")).toThrow(
      /outputs\.json lacks the output\(s\) dlq_url, ledger_table_name, idempotency_table_name, effects_table_name, function_name, operation/,
    );
  });
});

describe("Function: readSettings", () => {
  it("rejects an unknown target and a bad run id, naming the variable", () => {
    expect(() => readSettings({ E2E_TARGET: "gcp" })).toThrow(E2eSettingsError);
    expect(() => readSettings({ E2E_TARGET: "gcp" })).toThrow(/E2E_TARGET: "gcp" is not a target/);
    expect(() => readSettings({ E2E_RUN_ID: "a b" })).toThrow(/E2E_RUN_ID/);
  });

  it("gives aws runs a unique run id and reads the outputs file and stack", () => {
    const settings = readSettings({ E2E_TARGET: "aws", E2E_OUTPUTS_FILE: "out.json", E2E_STACK: "prod" });
    expect(settings).toMatchObject({ target: "aws", outputsFile: "out.json", stack: "prod", runId: expect.stringMatching(/^e2e-[a-z0-9]+-[0-9a-f]{6}$/) });
  });
});

describe("Function: openAwsTarget (a stack served by the local cloud)", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  let target: E2eTarget;

  beforeAll(async () => {
    stack = synthStack(TEST_WINDOWS, E2E_STACK);
    cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json"), retryVisibilityTimeoutSeconds: 1 });
    const mapping = (stack.json as unknown as { "//": { outputs: Mapping } })["//"].outputs;
    const outputsFile = file("outputs.json", cdktfOutputsFile(mapping, cloud.outputs));
    const settings = readSettings({ E2E_TARGET: "aws", E2E_OUTPUTS_FILE: outputsFile, E2E_SETTLE_TIMEOUT_SECONDS: "20" });
    // fauxqs' queue URLs name a host that does not resolve: the SQS client needs the endpoint explicitly.
    target = await openAwsTarget(settings, { ...AWS_PACING, pollIntervalMs: 100, quietReads: 2, receiveWaitSeconds: 0 }, {
      sqs: { endpoint: cloud.endpoints.sqs },
      dynamodb: { endpoint: cloud.endpoints.dynamodb },
    });
  }, 60_000);

  afterAll(async () => {
    await target?.close();
    await cloud?.stop();
    stack?.cleanup();
  });

  it("finds every name in the file cdktf writes", () => {
    expect(target.names).toEqual(stackNamesFromOutputs(cloud.outputs, "local"));
    expect(target).toMatchObject({ kind: "aws", settleTimeoutMs: 20_000 });
    // Only what any client can see: no fault injection, no delivery log, no TTL control.
    expect([target.faults, target.deliveries, target.retention]).toEqual([undefined, undefined, undefined]);
  });

  it("publishes and observes through the SDK alone: one message is applied once", async () => {
    const tenant = "e2e-aws-s1";
    const [message] = await publish(target, [payment(tenant, "o1")]);
    const settled = await settle(target, new DlqCollector(target, (body) => body.includes(tenant)), [message]);
    expect(settled.fates).toEqual({ [message.messageId]: "applied" });
    expect(settled.effects[message.key!]).toEqual({ charges: 1, calls: 1, callOutcomes: { applied: 1 } });
  });
});
