import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCapacityCli, type CapacityIo } from "../../src/capacity/cli";
import { DEFAULT_QUOTAS, QUOTA_IDS } from "../../src/capacity/quotas";
import { SETTINGS } from "./fixtures";

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "capacity-cli-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[], loadSettings?: CapacityIo["loadSettings"]) {
  let stdout = "";
  const stderr: string[] = [];
  const code = runCapacityCli(argv, { stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l), loadSettings });
  return { code, stdout, stderr: stderr.join("\n") };
}

describe("CLI: npm run capacity:plan -- --rate 5000 (the default stack, synthesized in-process)", () => {
  let result: ReturnType<typeof run>;
  let chart: string;
  beforeAll(() => {
    chart = join(dir, "utilisation.svg");
    result = run(["--rate", "5000", "--chart", chart]);
  });

  it("names SQS's messages in flight as the part that saturates first (about 48%), the ceiling and no increase at 5,000", () => {
    expect(result.code).toBe(0);
    // One invocation per batch (the default): 5,000 msg/s × (1.01 × 139 ms in the pipe + 0.01 retries × 1,140 s
    // visibility timeout) = 57,702 messages against SQS's 120,000 in flight.
    expect(result.stdout).toMatch(/Saturates first: SQS: messages in flight \(48% at 5,000 msg\/s; limit 120,000 messages, per queue\)/);
    // 120,000 ÷ 11.54 s in flight per message/s: about 10,400, not the 19,910 the ledger's writes allow.
    expect(result.stdout).toContain("Highest sustainable rate with these quotas: 10,398 msg/s.");
    // Lambda's request rate is no longer near: one invocation per batch, 0.101 a message.
    expect(result.stdout).toMatch(/Lambda: invocations per second \(account\)\s+505 invocations\/s\s+10,000\s+5\.1%/);
    expect(result.stdout).toContain("no increase to request");
    expect(result.stdout).toContain("SQS in flight is a silent limit: at it a long poll (the pipe's) gets no error");
    expect(result.stdout).toMatch(/Monthly cost at 5,000 msg\/s[\s\S]*total\s+\$\d{2},\d{3}\.\d\d/);
    expect(result.stdout).toContain("source queue visibility timeout                   1140 s");
  });

  it("prints every quota with its source page, and marks the assumptions", () => {
    for (const id of QUOTA_IDS) {
      expect(result.stdout).toContain(id);
      expect(result.stdout).toContain(DEFAULT_QUOTAS[id].source.url);
    }
    expect(result.stdout).toMatch(/sfn\.syncStartRate\s+6,000 executions\/s ASSUMPTION/);
  });

  it("writes an SVG with one line per part, the 100% line and the saturating part in the subtitle", () => {
    expect(existsSync(chart)).toBe(true);
    const svg = readFileSync(chart, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    for (const id of ["pipe", "sfn-rate", "sfn-concurrency", "lambda", "lambda-rate", "dynamodb-ledger-write", "hot-key-write", "sqs"]) expect(svg).toContain(`data-part="${id}"`);
    expect(svg).toContain(">100%<");
    expect(svg).toContain("saturates first: SQS: messages in flight at 10,398 msg/s");
  });
});

describe("CLI: options and errors", () => {
  const load = () => SETTINGS;
  const chart = () => join(dir, `c-${Math.random()}.svg`);

  it("--json carries the plan, the quotas with sources and the cost", () => {
    const { code, stdout } = run(["--rate", "50000", "--json", "--chart", chart()], load);
    expect(code).toBe(0);
    const json = JSON.parse(stdout);
    expect(json.plan.saturatesFirst.id).toBe("lambda-rate");
    expect(json.plan.remedies.map((r: { part: { id: string } }) => r.part.id)).toEqual(expect.arrayContaining(["lambda", "lambda-rate"]));
    expect(json.quotas["sqs.inFlight"].source.url).toMatch(/quotas-queues\.html$/);
    expect(json.cost.totalUsd).toBeGreaterThan(0);
  });

  it("prints a batch invocation's AWS-typical duration, which it uses, beside the one a bench measured locally", () => {
    // Arrange: a stack with one invocation per batch, and a bench figures file that timed its function.
    const figures = join(dir, "bench-figures.json");
    const timed = { batchSize: 10, executionMsPerBatch: 400, dynamoCallsPerMessage: 5.2, throughput: 100, batchInvocation: true, invocationsPerMessage: 0.101, functionMsPerInvocation: 61.7 };
    writeFileSync(figures, JSON.stringify({ kind: "pipeline-figures", label: "local CPU figures", duplicateRatio: 0, cases: [timed] }));
    const batch = () => ({ ...SETTINGS, batchInvocation: true as const });

    // Act
    const without = run(["--rate", "1000", "--chart", chart()], batch);
    const withFile = run(["--rate", "1000", "--chart", chart(), "--figures", figures], batch);

    // Assert
    expect(without.stdout).toMatch(/function: one batch invocation \(10 records\), AWS-typical \(the planner uses this\)\s+45 ms/);
    expect(without.stdout).toMatch(/function: one batch invocation \(10 records\), measured locally\s+not measured: npx effectively-once bench/);
    expect(withFile.stdout).toMatch(/AWS-typical \(the planner uses this\)\s+45 ms/);
    expect(withFile.stdout).toMatch(/measured locally\s+61\.7 ms, one invocation a batch \(0\.101 a message/);
  });

  it("far above every quota: sharding with the count, and the hot key as a hard limit", () => {
    const { code, stdout } = run(["--rate", "1000000", "--chart", chart()], load);
    expect(code).toBe(0);
    expect(stdout).toMatch(/shard into \d+ stacks by business key/);
    expect(stdout).toContain("hard per-key limit");
  });

  it.each([
    [[], /--rate is missing/],
    [["--rate", "fast"], /--rate fast: not a number/],
    [["--rate", "0"], /--rate 0: out of range/],
    [["--rate", "10", "--hot-key-share", "2"], /--hot-key-share 2: use a share between 0 and 1/],
    [["--rate", "10", "--quota", "lambda=5"], /"lambda" is not a quota the planner reads; use one of/],
    [["--rate", "10", "--figures", "/nonexistent/f.json"], /--figures \/nonexistent\/f\.json: cannot read it as JSON/],
    [["--rate", "10", "--bogus"], /Unknown option '--bogus'.*--help/],
  ])("%j exits 2 naming the flag and the fix", (argv, message) => {
    const { code, stderr } = run([...(argv as string[]), "--chart", chart()], load);
    expect(code).toBe(2);
    expect(stderr).toMatch(message as RegExp);
  });

  it("--help lists the flags", () => {
    const { code, stdout } = run(["--help"], load);
    expect(code).toBe(0);
    for (const flag of ["--rate", "--figures", "--quota", "--quotas", "--json", "--chart", "--hot-key-share", "--stack-file"]) expect(stdout).toContain(flag);
  });
});
