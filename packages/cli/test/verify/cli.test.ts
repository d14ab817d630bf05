/**
 * `npm run verify` before anything runs: the plan, the itemised cost, `--dry-run` calling nothing, `--yes` required
 * on AWS, usage errors naming the flag; and the guard that refuses to probe any stack but the probe stack.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runVerifyCli, type VerifyIo } from "../../src/verify/cli";
import { estimateCost } from "../../src/verify/cost";
import { NotTheProbeStackError } from "../../src/verify/errors";
import { assertProbeOutputs } from "../../src/verify/guard";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";
import { PROBES } from "../../src/verify/probes";
import { returnVerdict } from "../../src/verify/probes/failed-return";
import { decodeVectors } from "../../src/verify/probes/decode";
import { duplicateVectors } from "../../src/verify/probes/duplicate-members";
import { duplicateMemberName } from "@effectively-once/contract";
import { limitInputs } from "../../src/verify/probes/sync-input";
import { sqsMessageBytes, worstRecordBytes } from "../../src/verify/record-bound";
import { RECORD_BYTES_PER_MESSAGE_BYTE, RECORD_ENVELOPE_BYTES } from "@effectively-once/contract";
import { runProbes } from "../../src/verify/run";
import { planChanges, type Target } from "../../src/verify/targets";

let stack: ProbeStack;
beforeAll(() => {
  stack = synthProbeStack({ PIPELINE_APP: "payments" }, "payments", "t1");
}, 60_000);
afterAll(() => stack?.cleanup());

/** A target that records being opened: nothing may open one before --yes. */
function spyTarget(opened: string[], name: string): Target {
  return async () => {
    opened.push(name);
    throw new Error(`${name} target opened`);
  };
}

async function run(argv: string[]) {
  let out = "";
  const err: string[] = [];
  const opened: string[] = [];
  const destroyed: string[] = [];
  const asked: (string | undefined)[] = [];
  const probeStack = (id?: string) => (asked.push(id), { ...stack, cleanup: () => undefined });
  const destroy = async (s: ProbeStack) => destroyed.push(s.config.stackName);
  const io: VerifyIo = { env: {}, stdout: (t) => (out += t), stderr: (l) => err.push(l), probeStack, targets: { aws: spyTarget(opened, "aws"), local: spyTarget(opened, "local"), destroy } };
  const code = await runVerifyCli(argv, io);
  return { code, out, err: err.join("\n"), opened, destroyed, asked };
}

describe("CLI: npm run verify", () => {
  it("--dry-run lists every AWS call, deploy to teardown, with the itemised cost, and opens no target", async () => {
    const { code, out, opened } = await run(["--target", "aws", "--dry-run"]);
    expect(code).toBe(0);
    expect(opened).toEqual([]);
    expect(out).toContain("probe stack payments-pipeline-verify-t1 (name prefix payments-vfy-t1, region us-east-1)");
    expect(out).toMatch(/estimated cost of one run: \$0\.\d+ \(about \d+ minutes from deploy to teardown/);
    for (const action of ["init", "apply -auto-approve", "output -json", "TestState", "StartSyncExecution", "SendMessage", "FilterLogEvents", "GetItem", "StartMessageMoveTask", "plan -detailed-exitcode", "destroy -auto-approve"]) expect(out).toContain(action);
    const table = out.slice(out.indexOf("--dry-run: nothing is deployed or called"));
    expect(table.indexOf("apply -auto-approve")).toBeLessThan(table.indexOf("TestState"));
    expect(table.indexOf("StartMessageMoveTask")).toBeLessThan(table.indexOf("destroy -auto-approve"));
    expect(out).toContain("payments-vfy-t1-queue");
    expect(out).not.toMatch(/payments-queue\b/);
  });

  it("deploys nothing on AWS without --yes, saying what it would do and what it costs", async () => {
    const { code, out, err, opened } = await run(["--target", "aws"]);
    expect(code).toBe(2);
    expect(opened).toEqual([]);
    expect(out).toContain("estimated cost of one run");
    expect(err).toMatch(/nothing was deployed\. This deploys the probe stack payments-pipeline-verify-t1, probes it and destroys it \(estimated \$0\.\d+\): add --yes/);
  });

  it("refuses bad flags, naming the flag and the fix", async () => {
    expect((await run(["--target", "gcp"])).err).toContain('--target: "gcp" is not a target: use --target aws or --target local');
    expect((await run(["--target", "aws", "--aws-answers", "x.json"])).err).toContain("--aws-answers: only with --target local");
    expect((await run(["--target", "local", "--only", "decode-vectors,nope"])).err).toContain("--only: no probe nope: the probes are decode-vectors");
    const missing = await run(["--target", "local", "--aws-answers", "/no/such/answers.json"]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--aws-answers /no/such/answers.json: not an answer set");
  });

  it("refuses a probe id that is not 1-8 lowercase letters or digits, before synthesizing anything", async () => {
    for (const bad of ["K3X9Q2", "abc-def", "", "123456789"]) {
      const r = await run(["--target", "local", "--probe-id", bad]);
      expect(r.code).toBe(2);
      expect(r.asked).toEqual([]);
      expect(r.err).toContain(`--probe-id: ${JSON.stringify(bad)} is not a probe id: use 1-8 lowercase letters or digits`);
    }
    expect((await run(["--target", "aws", "--dry-run", "--probe-id", "k3x9q2"])).asked).toEqual(["k3x9q2"]);
    expect((await run(["--target", "aws", "--dry-run"])).asked).toEqual([undefined]);
  });

  it("says, before deploying, where the run's state is and how to destroy its stack if it stops before its teardown", async () => {
    const { out, opened } = await run(["--target", "aws", "--yes"]);
    expect(opened).toEqual(["local"]); // the spy refuses to open: the hint came first
    expect(out).toContain(`its terraform state: ${join(process.cwd(), "terraform.payments-pipeline-verify-t1.tfstate")}; if this run stops before its teardown, destroy the probe stack with: npx effectively-once verify --target aws --destroy --yes --probe-id t1 --app payments`);
  });

  it("--destroy destroys the probe stack of the id given, with --yes only, and deploys or probes nothing", async () => {
    const usage = await run(["--target", "aws", "--destroy"]);
    expect([usage.code, usage.destroyed]).toEqual([2, []]);
    expect(usage.err).toContain("--destroy: only with --target aws and --probe-id <id>");
    expect((await run(["--target", "local", "--destroy", "--probe-id", "t1"])).err).toContain("--destroy: only with --target aws");
    const unconfirmed = await run(["--target", "aws", "--destroy", "--probe-id", "t1"]);
    expect([unconfirmed.code, unconfirmed.destroyed, unconfirmed.opened]).toEqual([2, [], []]);
    expect(unconfirmed.err).toContain("nothing was destroyed. This destroys the probe stack payments-pipeline-verify-t1 (name prefix payments-vfy-t1, region us-east-1)");
    const done = await run(["--target", "aws", "--destroy", "--probe-id", "t1", "--yes"]);
    expect([done.code, done.destroyed, done.opened, done.asked]).toEqual([0, ["payments-pipeline-verify-t1"], [], ["t1"]]);
    expect(done.out).toContain(`verify: destroyed the probe stack payments-pipeline-verify-t1 (1 resources) and its state file ${stack.stateFile}`);
  });

  it("--destroy refuses --dry-run, --only, --record and --json (which it would ignore), naming them, and destroys nothing", async () => {
    const refused = await run(["--target", "aws", "--destroy", "--probe-id", "t1", "--yes", "--dry-run"]);
    expect([refused.code, refused.destroyed, refused.opened]).toEqual([2, [], []]);
    expect(refused.err).toContain("verify: --destroy: not with --dry-run (--destroy deploys and probes nothing");
    const all = await run(["--target", "aws", "--destroy", "--probe-id", "t1", "--yes", "--only", "decode-vectors", "--record", "a.json", "--json"]);
    expect([all.code, all.destroyed]).toEqual([2, []]);
    expect(all.err).toContain("--destroy: not with --only, --record, --json");
  });

  it("is named in package.json", () => {
    expect(JSON.parse(readFileSync(join(__dirname, "..", "..", "..", "..", "package.json"), "utf8")).scripts.verify).toBe("node packages/cli/bin/effectively-once.js verify");
  });
});

describe("Function: assertProbeOutputs (probes go to the probe stack only)", () => {
  const probeOutputs = () => ({
    queue_url: `https://sqs.us-east-1.amazonaws.com/123456789012/${stack.names.queue}`,
    queue_arn: `arn:aws:sqs:us-east-1:123456789012:${stack.names.queue}`,
    dlq_url: `https://sqs.us-east-1.amazonaws.com/123456789012/${stack.names.dlq}`,
    dlq_arn: `arn:aws:sqs:us-east-1:123456789012:${stack.names.dlq}`,
    state_machine_arn: `arn:aws:states:us-east-1:123456789012:stateMachine:${stack.names.stateMachine}`,
    ledger_table_name: stack.names.ledgerTable,
    idempotency_table_name: stack.names.idempotencyTable,
    function_name: stack.names.functionName,
  });

  it("accepts the probe stack's own outputs", () => {
    expect(() => assertProbeOutputs(probeOutputs(), stack)).not.toThrow();
  });

  it("refuses the team's stack, naming each output that is not the probe stack's", () => {
    const team = Object.fromEntries(Object.entries(probeOutputs()).map(([k, v]) => [k, v.replace(/payments-vfy-t1-/g, "payments-")]));
    expect(() => assertProbeOutputs(team, stack)).toThrow(NotTheProbeStackError);
    expect(() => assertProbeOutputs(team, stack)).toThrow(/queue_url = "https:\/\/sqs\.us-east-1\.amazonaws\.com\/123456789012\/payments-queue" \(the probe stack's is a URL ending \/payments-vfy-t1-queue\)/);
    expect(() => assertProbeOutputs({ ...probeOutputs(), ledger_table_name: "payments-ledger" }, stack)).toThrow(/ledger_table_name = "payments-ledger"/);
  });

  it("refuses another run's probe stack (the same prefix, another probe id)", () => {
    const other = Object.fromEntries(Object.entries(probeOutputs()).map(([k, v]) => [k, v.replace(/payments-vfy-t1-/g, "payments-vfy-t2-")]));
    expect(() => assertProbeOutputs(other, stack)).toThrow(/queue_url = "https:\/\/sqs\.us-east-1\.amazonaws\.com\/123456789012\/payments-vfy-t2-queue" \(the probe stack's is a URL ending \/payments-vfy-t1-queue\)/);
  });

  it("sends no probe to a session whose outputs are another stack's", async () => {
    // Endpoints on a closed port: any call would fail with a connection error instead of the refusal.
    const session = { label: "AWS", region: "us-east-1", local: false, outputs: { ...probeOutputs(), dlq_url: "https://sqs.us-east-1.amazonaws.com/1/payments-dlq" }, endpoints: { sqs: "http://127.0.0.1:9", dynamodb: "http://127.0.0.1:9", stepfunctions: "http://127.0.0.1:9", logs: "http://127.0.0.1:9" }, clock: { now: Date.now, sleep: async () => undefined }, replan: async () => "", close: async () => undefined };
    await expect(runProbes(session, stack, PROBES, "vfy-test", () => undefined)).rejects.toThrow(NotTheProbeStackError);
  });
});

describe("The probes' arithmetic", () => {
  it("builds limit inputs that straddle 262,144 in characters and in bytes", () => {
    const sizes = limitInputs().map(([, input]) => [input.length, Buffer.byteLength(input)]);
    expect(sizes).toEqual([[262_144, 262_144], [262_145, 262_145], [262_144, 262_145], [262_143, 262_144]]);
  });

  it("judges a return by the visibility timeout, with slack for the log times", () => {
    expect(returnVerdict(0.4, 540)).toBe("at once");
    expect(returnVerdict(536.5, 540)).toBe("after the visibility timeout");
    expect(returnVerdict(120, 540)).toBe("after 120 s, before the visibility timeout");
  });

  it("counts a message's size as SQS does and states the synth's worst case for it", () => {
    expect(sqsMessageBytes("é", { a: { DataType: "String", StringValue: "😀" }, b: { DataType: "Binary", BinaryValue: Uint8Array.from([1, 2]) } })).toBe(2 + (1 + 6 + 4) + (1 + 6 + 2));
    expect(worstRecordBytes(100)).toBe(RECORD_BYTES_PER_MESSAGE_BYTE * 100 + RECORD_ENVELOPE_BYTES);
  });

  it("names each vector once, and the number spellings differ only in their text", () => {
    const vectors = decodeVectors({ tenantId: "t", orderId: "o", amount: 1250, currency: "EUR" }, "tenantId", "amount");
    expect(new Set(vectors.map(([name]) => name)).size).toBe(vectors.length);
    expect(vectors.map(([, body]) => body)).toContain('{"tenantId":"t","orderId":"o","amount":1250.0,"currency":"EUR"}');
    expect(vectors.map(([, body]) => body)).toContain('{"tenantId":"t","orderId":"o","amount":1.25e+3,"currency":"EUR"}');
  });

  it("names each duplicate-member vector once; the first four hold a name twice in one object, the last two do not", () => {
    const vectors = duplicateVectors({ tenantId: "t", orderId: "o", amount: 1250, currency: "EUR" }, "tenantId", "amount");
    expect(new Set(vectors.map(([name]) => name)).size).toBe(vectors.length);
    for (const [, body] of vectors) expect(() => JSON.parse(body)).not.toThrow();
    expect(vectors.map(([, body]) => duplicateMemberName(body))).toEqual(["amount", "tenantId", "tenantId", "n", undefined, undefined]);
  });

  it("reads the resources a terraform plan would change", () => {
    const text = "  # aws_pipes_pipe.p will be updated in-place\n  ~ resource ...\n  # aws_sqs_queue.q must be replaced\nPlan: 1 to add";
    expect(planChanges(text)).toBe("changes: aws_pipes_pipe.p, aws_sqs_queue.q");
  });

  it("itemises the cost from deploy to teardown with the cost model's prices", () => {
    const cost = estimateCost(stack, PROBES);
    expect(cost.items.map((i) => i.what)).toEqual(expect.arrayContaining([expect.stringMatching(/^CloudWatch alarms \(\d+\) for about \d+ minutes$/), "Step Functions Express executions", "Lambda invocations"]));
    expect(cost.totalUsd).toBeCloseTo(cost.items.reduce((s, i) => s + i.usd, 0), 12);
    expect(cost.totalUsd).toBeGreaterThan(0);
    expect(cost.totalUsd).toBeLessThan(0.05);
    expect(cost.unpriced.join(" ")).toMatch(/after the teardown nothing is left/);
    // Without the long wait, the run is shorter and cheaper.
    expect(estimateCost(stack, PROBES.filter((p) => p.id !== "failed-record-return")).minutes).toBeLessThan(cost.minutes);
  });
});

describe("Ctrl-C (an aborted signal)", () => {
  it("stops before the next probe, and the session is still closed", async () => {
    // Arrange: a session on the probe stack's own outputs whose close is recorded; the run is aborted at once.
    const closed: string[] = [];
    const aborted = AbortSignal.abort(new Error("interrupted"));
    const outputs = { queue_url: `https://q/${stack.names.queue}`, queue_arn: `arn:aws:sqs:us-east-1:1:${stack.names.queue}`, dlq_url: `https://q/${stack.names.dlq}`, dlq_arn: `arn:aws:sqs:us-east-1:1:${stack.names.dlq}`, state_machine_arn: `arn:aws:states:us-east-1:1:stateMachine:${stack.names.stateMachine}`, ledger_table_name: stack.names.ledgerTable, idempotency_table_name: stack.names.idempotencyTable, function_name: stack.names.functionName };
    const target: Target = async () => ({ label: "AWS", region: "us-east-1", local: false, outputs, endpoints: { sqs: "http://127.0.0.1:9", dynamodb: "http://127.0.0.1:9", stepfunctions: "http://127.0.0.1:9", logs: "http://127.0.0.1:9" }, clock: { now: Date.now, sleep: async () => undefined }, replan: async () => "", close: async () => void closed.push("closed") });
    let out = "";
    const err: string[] = [];

    // Act
    const code = await runVerifyCli(["--target", "local"], { env: {}, stdout: (t) => (out += t), stderr: (l) => err.push(l), probeStack: () => ({ ...stack, cleanup: () => undefined }), targets: { local: target }, signal: aborted });

    // Assert
    expect(code).toBe(2);
    expect(closed).toEqual(["closed"]);
    expect(err.join("\n")).not.toMatch(/decode-vectors…/);
  });
});
