/**
 * `preflight --json`: the report as one JSON document on stdout (what a deploy job parses before `cdktf deploy`), the
 * same findings as the text report; a stop leaves stdout empty and says its one line on stderr.
 */
import { ACCOUNT, removeStackFiles, run, stackFile } from "./run";

afterAll(() => removeStackFiles());

interface PreflightDocument {
  ok: boolean;
  failed: number;
  region: string;
  sections: { title: string; findings: { level: "ok" | "warn" | "fail" | "info"; text: string }[] }[];
}

const MARK = { ok: "✔", warn: "!", fail: "✘", info: "·" } as const;

describe("preflight --json (against a local stand-in of the account's APIs)", () => {
  it("prints the sections and their findings, line for line the text report's", async () => {
    const json = await run(["--stack-file", stackFile(), "--json"]);
    const text = await run(["--stack-file", stackFile()]);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.out) as PreflightDocument;
    expect(doc).toMatchObject({ ok: true, failed: 0, region: "us-east-1" });
    expect(doc.sections.map((s) => s.title)).toEqual(expect.arrayContaining(["Account", "Region", "Lambda", "IAM", "DynamoDB", "Deployer rights"]));
    const lines = doc.sections.flatMap((s) => [s.title, ...s.findings.map((f) => `  ${MARK[f.level]} ${f.text}`)]);
    expect(lines.length).toBeGreaterThan(doc.sections.length);
    expect(text.out.split("\n").slice(1, 1 + lines.length)).toEqual(lines);
    expect(json.err).toBe("");
  });

  it("a failed check: ok false, the count, the finding at level fail, exit 1", async () => {
    const { code, out } = await run(["--stack-file", stackFile(200), "--json"], { ...ACCOUNT, concurrentExecutions: 250, unreservedConcurrentExecutions: 250 });
    expect(code).toBe(1);
    const doc = JSON.parse(out) as PreflightDocument;
    expect(doc).toMatchObject({ ok: false, failed: 1 });
    const fails = doc.sections.flatMap((s) => s.findings).filter((f) => f.level === "fail");
    expect(fails.map((f) => f.text)).toEqual([expect.stringContaining("test-charge: reservedConcurrency 200 would leave 50 unreserved")]);
  });

  it("--dry-run --json lists the calls the text lists, and makes none", async () => {
    const json = await run(["--stack-file", stackFile(), "--dry-run", "--json"]);
    const text = await run(["--stack-file", stackFile(), "--dry-run"]);
    expect(json.code).toBe(0);
    expect(json.seen).toEqual([]);
    const doc = JSON.parse(json.out) as { dryRun: boolean; region: string; calls: { action: string; why: string }[] };
    expect(doc).toMatchObject({ dryRun: true, region: "us-east-1" });
    const listed = [...text.out.matchAll(/^ {2}([a-z]+:[A-Za-z]+)/gm)].map((m) => m[1]);
    expect(doc.calls.map((c) => c.action)).toEqual(listed);
    expect(listed.length).toBeGreaterThan(5);
  });

  it("a stop (AWS unreachable, a bad flag) prints nothing on stdout and its one line on stderr", async () => {
    const unreachable = await run(["--stack-file", stackFile(), "--json"], ACCOUNT, { options: (o) => ({ ...o, endpoint: "http://127.0.0.1:9" }) });
    expect(unreachable.code).toBe(5);
    expect(unreachable.out).toBe("");
    expect(unreachable.err).toMatch(/^preflight: AWS could not be reached while asking AWS in us-east-1 \(ECONNREFUSED.*Fix: check the network/s);
    const bad = await run(["--json", "--rate", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.out).toBe("");
    expect(bad.err).toContain("--rate must be a positive number");
  });
});
