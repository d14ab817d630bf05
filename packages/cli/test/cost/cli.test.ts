import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runChartCli } from "../../src/cost/chart-cli";
import { runCostCli } from "../../src/cost/cost-cli";
import { CONFIG } from "./fixtures";

function run(argv: string[]) {
  let stdout = "";
  const stderr: string[] = [];
  const code = runCostCli(argv, { stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l), loadConfig: () => CONFIG });
  return { code, stdout, stderr: stderr.join("\n") };
}

describe("CLI: npm run cost", () => {
  it("prints the help with every flag", () => {
    const { code, stdout } = run(["--help"]);
    expect(code).toBe(0);
    for (const flag of ["--duplicate-ratio", "--batch-size", "--json", "--stack-file", "--function-ms", "--log-level", "--log-bytes", "--sfn-log-level", "--pipes-billing", "--baseline-workflow"]) {
      expect(stdout).toContain(flag);
    }
  });

  it("prints the comparison, the line items, the paths, the assumptions and the prices with their sources", () => {
    const { code, stdout } = run([]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Cost per million messages, by service/);
    expect(stdout).toMatch(/Total\s+\$5\.\d\d\s+\$8\.\d\d/);
    expect(stdout).toMatch(/At a glance/);
    expect(stdout).toMatch(/Per record path/);
    expect(stdout).toMatch(/functionMs\s+45/);
    expect(stdout).toMatch(/dynamodb\.pitr .* NONE \(unconfirmed\)/);
    expect(stdout).toContain("https://aws.amazon.com/dynamodb/pricing/on-demand/");
    expect(stdout).toMatch(/Fixed monthly costs/);
  });

  it("prints the pipeline's own cost apart from the side effect, each against the Lambda guard", () => {
    const { stdout } = run([]);
    expect(stdout).toMatch(/The pipeline's own cost and the side effect's, per million messages/);
    expect(stdout).toMatch(/pipeline's own cost\s+\$[34]\.\d\d\s+\$6\.\d\d\s+0\.6\d ×/);
    expect(stdout).toMatch(/side effect \(the example's\)\s+\$1\.62\s+\$1\.62\s+1\.00 ×/);
    expect(stdout).toMatch(/effects writes\s+side effect/);
    expect(stdout).toMatch(/ledger writes\s+pipeline/);
  });

  it("takes the scenario from the flags (a percentage works too)", () => {
    const { stdout } = run(["--json", "--duplicate-ratio", "20%", "--batch-size", "5", "--function-ms", "90", "--retry-ratio", "0"]);
    const out = JSON.parse(stdout);
    expect(out.scenario).toEqual({ messages: 1_000_000, duplicateRatio: 0.2, quarantineRatio: 0.001, retryRatio: 0, batchSize: 5 });
    expect(out.assumptions.functionMs).toBe(90);
    expect(out.comparison.design.executions).toBeCloseTo(200_000, 6);
    expect(out.matrix.map((c: { scenario: { duplicateRatio: number; batchSize: number } }) => [c.scenario.duplicateRatio, c.scenario.batchSize])).toEqual([
      [0, 5], [0, 1], [0.2, 5], [0.2, 1], [0.5, 5], [0.5, 1],
    ]);
  });

  it("applies log level overrides to the priced configuration", () => {
    const quiet = JSON.parse(run(["--json", "--log-level", "warn", "--sfn-log-level", "off"]).stdout);
    const logs = (c: { lines: { service: string; usd: number }[] }) => c.lines.filter((l) => l.service === "CloudWatch Logs").reduce((s, l) => s + l.usd, 0);
    // Only the fate metrics remain: above INFO the function writes them as a line of their own; the workflow's go by PutLogEvents.
    const fates = (c: { lines: { service: string; item: string; usd: number }[] }) => c.lines.filter((l) => l.service === "CloudWatch Logs" && l.item.includes("fate metrics")).reduce((s, l) => s + l.usd, 0);
    expect(fates(quiet.comparison.design)).toBeGreaterThan(0);
    expect(logs(quiet.comparison.design)).toBeCloseTo(fates(quiet.comparison.design), 9);
    const bytes = JSON.parse(run(["--json", "--log-bytes", "0"]).stdout);
    expect(bytes.comparison.design.lines.find((l: { item: string }) => l.item.startsWith("payments-charge logs")).usd).toBe(0);
  });

  it("prints Markdown tables for docs/cost.md", () => {
    const { stdout } = run(["--markdown"]);
    expect(stdout).toMatch(/^### Cost per million messages, by service/m);
    expect(stdout).toMatch(/^\| Service \| This design \(batch 10\) \|/m);
  });

  it.each([
    [["--duplicate-ratio", "1.5"], /--duplicate-ratio 1.5: use a share between 0 and 1/],
    [["--batch-size", "11"], /--batch-size 11: out of range, use 1\.\.10/],
    [["--batch-size", "2.5"], /--batch-size 2.5: use a whole number/],
    [["--sfn-log-level", "verbose"], /--sfn-log-level VERBOSE: use one of ALL, ERROR, FATAL, OFF/],
    [["--pipes-billing", "message"], /--pipes-billing message: use one of event, batch/],
    [["--json", "--markdown"], /choose one output format/],
    [["--colour"], /Unknown option '--colour'/],
  ])("rejects %j with exit code 2 and a message naming the flag", (argv, message) => {
    const { code, stderr } = run(argv as string[]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("fails with the reason when the stack file does not exist", () => {
    const stderr: string[] = [];
    const code = runCostCli(["--stack-file", "/nonexistent/cdk.tf.json"], { stdout: () => undefined, stderr: (l) => stderr.push(l) });
    expect(code).toBe(1);
    expect(stderr.join("\n")).toMatch(/no synthesized stack at \/nonexistent\/cdk.tf.json/);
  });
});

describe("CLI: npm run cost:chart", () => {
  it("writes a self-contained SVG with both designs for three duplicate ratios over batch sizes 1-10", () => {
    const dir = mkdtempSync(join(tmpdir(), "cost-chart-"));
    try {
      const out = join(dir, "chart.svg");
      const lines: string[] = [];
      const code = runChartCli(["--out", out], { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l), loadConfig: () => CONFIG });
      expect(code).toBe(0);
      const svg = readFileSync(out, "utf8");
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
      expect(svg.match(/<polyline /g)).toHaveLength(6);
      expect(svg.match(/<circle /g)).toHaveLength(30);
      expect(svg).not.toMatch(/NaN|undefined|Infinity/);
      expect(svg).toContain("Lambda guard,");
      expect(lines.join("\n")).toContain("(30 points)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
