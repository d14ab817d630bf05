/**
 * `verify --json`: one JSON document on stdout (what a CI job parses), the progress on stderr; the same facts,
 * differences and exit code as the report.
 */
import { runVerifyCli } from "../../src/verify/cli";
import { compareAnswers } from "../../src/verify/compare";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";
import { AWS_FIXTURE, LOCAL_FIXTURE, readAnswers } from "./support/fixtures";

let stack: ProbeStack;
beforeAll(() => {
  stack = synthProbeStack({ PIPELINE_APP: "payments" }, "payments", "t1");
}, 60_000);
afterAll(() => stack?.cleanup());

async function verify(argv: string[]) {
  let out = "";
  const err: string[] = [];
  const code = await runVerifyCli(argv, { env: {}, stdout: (t) => (out += t), stderr: (l) => err.push(l), probeStack: () => ({ ...stack, cleanup: () => undefined }) });
  return { code, out, err: err.join("\n") };
}

interface VerifyDocument {
  ok: boolean;
  exitCode: number;
  target: string;
  probeStack: { stackName: string; namePrefix: string; region: string };
  cost?: { totalUsd: number; items: unknown[] };
  dryRun?: boolean;
  plannedCalls?: { service: string; action: string }[];
  awsAnswers?: { source: string; file?: string; takenAt?: string };
  probes?: { id: string; protects: string; facts: { name: string; aws?: string; local?: string; differs: boolean }[] }[];
  differences?: { probe: string; fact: string; aws: string; local: string }[];
  failures?: string[];
}

describe("verify --json", () => {
  it("--dry-run --target aws: the probe stack, the itemised cost and every planned call, as JSON on stdout only", async () => {
    const { code, out, err } = await verify(["--target", "aws", "--dry-run", "--json"]);
    expect(code).toBe(0);
    const doc = JSON.parse(out) as VerifyDocument;
    expect(doc).toMatchObject({ ok: true, exitCode: 0, target: "aws", dryRun: true, probeStack: { stackName: "payments-pipeline-verify-t1", namePrefix: "payments-vfy-t1", region: "us-east-1", probeId: "t1", destroyCommand: "npx effectively-once verify --target aws --destroy --yes --probe-id t1 --app payments" } });
    expect(doc.cost!.totalUsd).toBeGreaterThan(0);
    expect(doc.cost!.items.length).toBeGreaterThan(0);
    const actions = doc.plannedCalls!.map((c) => c.action);
    expect(actions[0]).toBe("init");
    expect(actions).toEqual(expect.arrayContaining(["apply -auto-approve", "TestState", "StartSyncExecution", "destroy -auto-approve"]));
    expect(err).toContain("verify --target aws: probe stack payments-pipeline-verify-t1");
  });

  it("--target local against recorded AWS answers: the probes' facts and each difference, exit 1 as the report", async () => {
    const { code, out, err } = await verify(["--target", "local", "--only", "random-seed", "--aws-answers", AWS_FIXTURE, "--json"]);
    expect(err).not.toMatch(/verify failed|did not finish/);
    expect(code).toBe(1);
    const doc = JSON.parse(out) as VerifyDocument;
    expect(doc).toMatchObject({ ok: false, exitCode: 1, target: "local", awsAnswers: { source: "recorded", file: AWS_FIXTURE } });
    expect(doc.probes!.map((p) => p.id)).toEqual(["random-seed"]);
    // The same differences the committed answer sets hold for this probe.
    const expected = compareAnswers(readAnswers(AWS_FIXTURE), readAnswers(LOCAL_FIXTURE)).differences.filter((d) => d.probe === "random-seed");
    expect(expected.length).toBe(2);
    expect(doc.differences).toEqual(expected);
    expect(doc.probes![0].facts.filter((f) => f.differs).map((f) => f.name)).toEqual(expected.map((d) => d.fact));
  }, 120_000);

  it("a refusal prints nothing on stdout: one line on stderr, exit 2", async () => {
    const { code, out, err } = await verify(["--target", "aws", "--json"]);
    expect(code).toBe(2);
    expect(out).toBe("");
    expect(err).toMatch(/nothing was deployed\. .* add --yes/);
  });
});
