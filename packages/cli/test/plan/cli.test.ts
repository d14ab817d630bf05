import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformCommandError } from "../../src/terraform/errors";
import { describeError, main } from "../../src/terraform/plan-cli";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis } from "../../src/terraform/review/types";
import { LEDGER, plan, table } from "./support/plan-fixtures";

/** Runs the CLI in-process with a clean environment (no AWS credentials, a private HOME). */
async function cli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  // NODE_OPTIONS: the synth command (this repository's cdktf.json app) resolves the workspace packages from source.
  const code = await main(argv, { env: { PATH: process.env.PATH, HOME: home, NODE_OPTIONS: process.env.NODE_OPTIONS, ...env }, stdout: (t) => out.push(t), stderr: (l) => err.push(l) });
  return { code, stdout: out.join(""), stderr: err.join("\n") };
}

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "plan-cli-"));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe("CLI: effectively-once plan (paths that run no terraform)", () => {
  it("prints usage with --help", async () => {
    const { code, stdout } = await cli(["--help"]);
    expect(code).toBe(0);
    expect(stdout).toContain("Usage: npx effectively-once plan [options]");
    for (const flag of ["--offline", "--online", "--against", "--base-env", "--head-env", "--outdir", "--fail-on-risk"]) expect(stdout).toContain(flag);
  });

  it("rejects unknown flags and contradictory modes with one line naming the fix", async () => {
    const unknown = await cli(["--nope"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^plan: .*--nope.*\(see --help\)$/);
    expect((await cli(["--offline", "--online"])).stderr).toBe("plan: --offline and --online exclude each other: pick one");
  });

  it("goes offline when no credentials are configured, and says plainly that terraform is missing", async () => {
    const { code, stderr } = await cli(["--outdir", join(home, "out")], { TERRAFORM_BIN: join(home, "no-terraform") });
    expect(code).toBe(1);
    expect(stderr).toContain("plan: no AWS credentials configured: offline plan (pass --online to force)");
    expect(stderr).toContain("plan: no terraform CLI found on PATH; install Terraform >= 1.5 or set TERRAFORM_BIN");
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses --online without credentials in one line, before the synth", async () => {
    const metadata = process.env.AWS_EC2_METADATA_DISABLED;
    process.env.AWS_EC2_METADATA_DISABLED = "true"; // the SDK's chain reads this process's environment: no instance role here
    try {
      const { code, stderr } = await cli(["--online", "--outdir", join(home, "online")], { AWS_SHARED_CREDENTIALS_FILE: join(home, "none"), AWS_CONFIG_FILE: join(home, "none") });
      expect(code).toBe(1);
      expect(stderr).toMatch(/^plan: --online needs AWS credentials, and none answer \(.+\): configure them \(AWS_PROFILE, AWS_ACCESS_KEY_ID\/AWS_SECRET_ACCESS_KEY, an instance role\), or plan with --offline$/);
      expect(existsSync(join(home, "online"))).toBe(false);
    } finally {
      if (metadata === undefined) delete process.env.AWS_EC2_METADATA_DISABLED;
      else process.env.AWS_EC2_METADATA_DISABLED = metadata;
    }
  });

  it("names TF_PROVIDER_MIRROR and the provider the synthesized stack requires when the mirror lacks it, before running terraform", async () => {
    const { code, stderr } = await cli(["--offline", "--outdir", join(home, "out2")], { TERRAFORM_BIN: process.execPath, TF_PROVIDER_MIRROR: join(home, "no-mirror") });
    expect(code).toBe(1);
    expect(stderr.split("\n")).toEqual([
      `synth: npx tsx main.ts (in ${process.cwd()}, into ${join(home, "out2")})`,
      expect.stringMatching(/^plan: synth \(npx tsx main\.ts\) /),
      expect.stringMatching(/^plan: TF_PROVIDER_MIRROR=.*no-mirror holds no registry\.terraform\.io\/hashicorp\/aws\/5\.100\.0 \(the synthesized stack requires hashicorp\/aws 5\.100\.0; .*terraform providers mirror/),
    ]);
  });

  it("reviews a saved plan against a saved plan or review, and exits 2 on a high risk with --fail-on-risk", async () => {
    // Arrange
    const before = join(home, "before.json");
    const after = join(home, "after.json");
    const beforeReview = join(home, "before-review.json");
    const basePlan = plan([{ address: LEDGER, actions: ["create"], after: table() }]);
    writeFileSync(before, JSON.stringify(basePlan));
    writeFileSync(beforeReview, JSON.stringify(buildReview(basePlan, { basis: ActionBasis.EmptyState })));
    writeFileSync(after, JSON.stringify(plan([{ address: LEDGER, actions: ["create"], after: table({ name: "q-ledger" }) }])));
    // Act
    const quiet = await cli(["--from-json", before, "--quiet"]);
    const relaxed = await cli(["--from-json", after, "--against", before]);
    const strict = await cli(["--from-json", after, "--against", beforeReview, "--fail-on-risk", "--quiet"]);
    // Assert
    expect(quiet).toMatchObject({ code: 0, stdout: "" });
    expect(relaxed.code).toBe(0);
    expect(relaxed.stdout).toContain(`### Changes against \`${before}\``);
    expect(relaxed.stdout).toContain("| q-ledger | name | p-ledger | q-ledger |");
    expect(relaxed.stdout).toContain("the ledger loses every claim");
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain("1 risk flag(s)");
  });

  it("explains a file that is not a plan", async () => {
    const bogus = join(home, "bogus.json");
    writeFileSync(bogus, "{}");
    expect((await cli(["--from-json", bogus])).stderr).toBe(`plan: --from-json ${bogus}: not a 'terraform show -json' plan output (no format_version/resource_changes)`);
    expect(readFileSync(bogus, "utf8")).toBe("{}");
  });

  it("turns a terraform failure into its last lines, without the box drawing", () => {
    const error = new TerraformCommandError(["plan", "-out=/tmp/x"], 1, "noise\n╷\n│ Error: Invalid reference\n│ \n│   on cdk.tf.json line 3\n╵\n");
    expect(describeError(error)).toBe("plan: terraform plan failed (exit 1); its last lines:\n    noise\n    Error: Invalid reference\n      on cdk.tf.json line 3");
  });
});
