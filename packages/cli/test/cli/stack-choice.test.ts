/**
 * How the stack commands find the team's stack (a flag, or cdktf.json's synth output) and what they refuse, each in
 * one line with exit 2 and before the command runs: a stack without a pipeline, two pipelines and no --pipeline, an
 * unknown pipeline or stack, a failing synth command, no project at all, a message profile of the wrong shape.
 */
import { DynamodbTable } from "@cdktf/provider-aws/lib/dynamodb-table";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { App, TerraformStack } from "cdktf";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EffectJournalTable, IdempotentPipeline, type IdempotentPipelineProps } from "@effectively-once/pipeline";
import { cli } from "./support";

const ROOT = join(__dirname, "..", "..", "..", "..");
const TICKETS = (namePrefix: string, more: Partial<IdempotentPipelineProps>, downstream: Partial<IdempotentPipelineProps["function"]>): IdempotentPipelineProps => ({
  namePrefix,
  businessKey: { expression: "[queue, number]", requiredFields: ["queue", "number"] },
  operation: "open",
  payloadFields: ["priority"],
  function: { name: "open", entry: join(ROOT, "test", "public-api", "tickets-handler.ts"), ...downstream },
  ...more,
});

let work: string;
let twoPipelines: string;
let noPipeline: string;
let httpDownstream: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "cli-stack-choice-"));
  const app = new App({ outdir: join(work, "synth") });
  const two = new TerraformStack(app, "two");
  new AwsProvider(two, "aws", { region: "eu-west-1" });
  // One downstream table both pipelines write (the team's own resource, outside either construct).
  const journal = new EffectJournalTable(two, "tickets", { namePrefix: "tickets" });
  const downstream = { environment: journal.environment, policyStatements: journal.policyStatements };
  new IdempotentPipeline(two, "first", TICKETS("first", { outputPrefix: "first_" }, downstream));
  new IdempotentPipeline(two, "second", TICKETS("second", { outputPrefix: "second_", batchSize: 3 }, downstream));
  // A downstream that is not an EffectJournalTable (an HTTP API): the stack holds the pipeline's two tables only.
  const http = new TerraformStack(app, "http");
  new AwsProvider(http, "aws", { region: "eu-west-1" });
  new IdempotentPipeline(http, "pipeline", TICKETS("http", {}, { environment: { TICKETS_URL: "https://tickets.example" } }));
  // And a table of the team's own, which neither model reads.
  new DynamodbTable(http, "audit", { name: "http-audit", hashKey: "id", attribute: [{ name: "id", type: "S" }], billingMode: "PAY_PER_REQUEST" });
  const none = new TerraformStack(app, "none");
  new AwsProvider(none, "aws", { region: "eu-west-1" });
  new EffectJournalTable(none, "journal", { namePrefix: "lonely" });
  app.synth();
  twoPipelines = join(work, "synth", "stacks", "two", "cdk.tf.json");
  noPipeline = join(work, "synth", "stacks", "none", "cdk.tf.json");
  httpDownstream = join(work, "synth", "stacks", "http", "cdk.tf.json");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A project folder whose synth command copies the given stacks into $CDKTF_OUTDIR, as cdktf's App would write them. */
function project(name: string, stacks: Record<string, string>, app = "node synth.js"): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app, output: "out" }));
  const copies = Object.entries(stacks).map(([stack, file]) => `fs.mkdirSync(path.join(out, "stacks", ${JSON.stringify(stack)}), { recursive: true }); fs.copyFileSync(${JSON.stringify(file)}, path.join(out, "stacks", ${JSON.stringify(stack)}, "cdk.tf.json"));`);
  writeFileSync(join(dir, "synth.js"), `const fs = require("node:fs"); const path = require("node:path"); const out = process.env.CDKTF_OUTDIR;\n${copies.join("\n")}\n`);
  return dir;
}

const batchSizeOf = (stdout: string): number => (JSON.parse(stdout) as { config: { pipe: { batchSize: number } } }).config.pipe.batchSize;

describe("Stack commands: which stack, which pipeline", () => {
  it("refuses a stack without an IdempotentPipeline, for every stack command", async () => {
    for (const command of ["cost", "capacity", "preflight", "deployer-policy"]) {
      const { code, stdout, stderr } = await cli([command, "--stack-file", noPipeline, "--rate", "10"]);
      expect({ command, code, stdout }).toEqual({ command, code: 2, stdout: "" });
      expect(stderr).toEqual([`effectively-once ${command}: ${noPipeline} has no IdempotentPipeline (no aws_pipes_pipe at <pipeline>/pipe/pipe beside its state machine): point --stack-file or --stack at the stack that adds the construct`]);
    }
  });

  it("refuses two pipelines without --pipeline, naming them; --pipeline reads the one it names", async () => {
    const both = await cli(["cost", "--stack-file", twoPipelines]);
    expect(both.code).toBe(2);
    expect(both.stderr).toEqual([`effectively-once cost: ${twoPipelines} holds 2 pipelines (first, second): pass --pipeline <id> to pick one`]);
    const second = await cli(["cost", "--stack-file", twoPipelines, "--pipeline", "second", "--json"]);
    expect(second.stderr).toEqual([`stack: ${twoPipelines}, pipeline second (two/second)`]);
    expect(second.code).toBe(0);
    expect(batchSizeOf(second.stdout)).toBe(3);
    const first = await cli(["cost", "--json", "--pipeline=first", "--stack-file", twoPipelines]);
    expect(batchSizeOf(first.stdout)).toBe(10);
    const unknown = await cli(["capacity", "--rate", "10", "--stack-file", twoPipelines, "--pipeline", "third"]);
    expect(unknown).toMatchObject({ code: 2, stderr: [`effectively-once capacity: --pipeline third: ${twoPipelines} has no pipeline of that id; it has first, second`] });
  });

  it("gives the deployer policy the whole stack, both pipelines", async () => {
    const { code, stdout } = await cli(["deployer-policy", "--stack-file", twoPipelines]);
    expect(code).toBe(0);
    expect(stdout).toContain("first-open-eu-west-1-role");
    expect(stdout).toContain("second-open-eu-west-1-role");
  });

  it("prices and plans a pipeline whose downstream has no table of its own, beside a table of the team's", async () => {
    const cost = await cli(["cost", "--stack-file", httpDownstream, "--json"]);
    expect(cost.code).toBe(0);
    const lines = (JSON.parse(cost.stdout) as { comparison: { design: { lines: { item: string }[] } } }).comparison.design.lines.map((l) => l.item);
    expect(lines.filter((item) => /ledger|idempotency/.test(item)).length).toBeGreaterThan(0);
    expect(lines.filter((item) => /effects/.test(item))).toEqual([]);
    const capacity = await cli(["capacity", "--rate", "100", "--stack-file", httpDownstream]);
    expect(capacity.code).toBe(0);
    expect(capacity.stdout).toContain("http-ledger");
    expect(capacity.stdout).not.toContain("effects");
    expect(capacity.stdout).not.toContain("http-audit");
  });

  it("reads cdktf.json's output, synthesizing it first with cdktf.json's app when it holds no stack", async () => {
    const dir = project("one-stack", { two: twoPipelines });
    const run = await cli(["cost", "--pipeline", "second", "--json"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`synth: node synth.js (in ${dir}, into ${join(dir, "out")})`);
    expect(batchSizeOf(run.stdout)).toBe(3);
    // The output now holds the stack: read as it is, no second synth.
    const again = await cli(["cost", "--pipeline", "second", "--json"], { cwd: dir });
    expect(again.stderr.filter((l) => l.startsWith("synth:"))).toEqual([]);
  });

  it("asks for --stack when the synth output holds several, and names them", async () => {
    const dir = project("two-stacks", { two: twoPipelines, none: noPipeline });
    const run = await cli(["cost"], { cwd: dir });
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr.at(-1)).toBe(`effectively-once cost: ${join(dir, "out", "stacks")} holds 2 stacks (none, two): pass --stack <name>`);
    expect((await cli(["cost", "--stack", "nope"], { cwd: dir })).stderr.at(-1)).toBe(`effectively-once cost: --stack nope: ${join(dir, "out", "stacks")} has no such stack; it has none, two`);
    expect((await cli(["cost", "--stack", "two", "--pipeline", "first", "--json"], { cwd: dir })).code).toBe(0);
  });

  it("stops on a failing synth command with one line, and without a project or a flag names both ways", async () => {
    const dir = project("broken", {}, "exit 3");
    const broken = await cli(["capacity", "--rate", "10"], { cwd: dir });
    expect(broken).toMatchObject({ code: 2, stdout: "" });
    expect(broken.stderr.at(-1)).toBe('effectively-once capacity: synth: "exit 3" exited 3; fix the app, or pass --stack-file <cdk.tf.json>');
    expect(existsSync(join(dir, "out", "stacks"))).toBe(false);
    const bare = mkdtempSync(join(work, "bare-"));
    expect((await cli(["cost"], { cwd: bare })).stderr).toEqual([`effectively-once cost: no stack: ${bare} holds no cdktf.json; run from your cdktf (or CDK Terrain) project's folder, or pass --stack-file <cdk.tf.json>`]);
    expect((await cli(["cost", "--stack-file", join(bare, "nope.json")], { cwd: bare })).stderr).toEqual([`effectively-once cost: --stack-file ${join(bare, "nope.json")}: no such file (a synthesized cdk.tf.json, e.g. cdktf.out/stacks/<stack>/cdk.tf.json)`]);
  });
});

describe("soak and bench: the team's message profile by path", () => {
  it("refuses a profile module of the wrong shape before anything starts, naming each member", async () => {
    const bad = join(work, "bad-profile.ts");
    writeFileSync(bad, "export const profile = { unique: 1, rejected: \"no\" };\n");
    for (const command of ["soak", "bench"]) {
      const { code, stdout, stderr } = await cli([command, "--app", join(ROOT, "examples", "payments"), "--message-profile", bad], { cwd: ROOT });
      expect({ command, code, stdout }).toEqual({ command, code: 2, stdout: "" });
      expect(stderr).toHaveLength(1);
      expect(stderr[0]).toContain(`${join(work, "bad-profile")} exports a \`profile\` that is not a MessageProfile`);
      expect(stderr[0]).toContain("`unique` is number, not a function; `conflict` is undefined, not a function; `rejected` is string, not a function");
    }
    const missing = await cli(["soak", "--app", join(ROOT, "examples", "payments"), "--message-profile", join(work, "nowhere.ts")], { cwd: ROOT });
    expect(missing.stderr).toEqual([`soak: ${join(work, "nowhere")}.ts is missing: it must export \`profile\` (a MessageProfile: { unique(index, runId, random), conflict(body), rejected?(index, runId), groupOf?(body) })`]);
    expect(readFileSync(bad, "utf8")).toContain("unique: 1");
  });
});
