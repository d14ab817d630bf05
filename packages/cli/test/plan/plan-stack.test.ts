import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformCommandError } from "../../src/terraform/errors";
import { OFFLINE_OVERRIDE_FILE } from "../../src/terraform/offline-override";
import { planStack } from "../../src/terraform/plan-stack";

/**
 * A stand-in `terraform` that records each call (arguments, the variables that matter, the override file it saw)
 * and prints a minimal plan for `show -json`. Online plans cannot run on this machine, so this is how the online
 * path's arguments and environment are checked; the real offline path is covered by terraform-plan.test.ts.
 */
const FAKE = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const args = process.argv.slice(2);
const override = path.join(process.cwd(), ${JSON.stringify(OFFLINE_OVERRIDE_FILE)});
fs.appendFileSync(process.env.FAKE_LOG, JSON.stringify({
  args,
  override: fs.existsSync(override) ? JSON.parse(fs.readFileSync(override, "utf8")) : null,
  env: { TF_CLI_CONFIG_FILE: process.env.TF_CLI_CONFIG_FILE, TF_DATA_DIR: process.env.TF_DATA_DIR, AWS_PROFILE: process.env.AWS_PROFILE, AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID },
}) + "\\n");
if (args[0] === "init") fs.writeFileSync(path.join(process.cwd(), ".terraform.lock.hcl"), "# written by init\\n");
if (process.env.FAKE_FAIL === args[0]) { process.stderr.write("Error: something broke\\n"); process.exit(1); }
if (args[0] === "show") process.stdout.write(JSON.stringify({ format_version: "1.2", terraform_version: "1.11.4", resource_changes: [] }));
`;

describe("Function: planStack (arguments and environment of each terraform call)", () => {
  let dir: string;
  let bin: string;
  let log: string;
  let stackDir: string;
  const calls = () => readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { args: string[]; override: Record<string, any> | null; env: Record<string, string | undefined> });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "plan-stack-"));
    bin = join(dir, "terraform");
    writeFileSync(bin, FAKE);
    chmodSync(bin, 0o755);
    log = join(dir, "calls.jsonl");
    writeFileSync(log, "");
    stackDir = join(dir, "stack");
    mkdirSync(stackDir);
    mkdirSync(join(dir, "mirror"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const userEnv = () => ({ PATH: process.env.PATH, FAKE_LOG: log, AWS_PROFILE: "prod", AWS_ACCESS_KEY_ID: "AKIAREAL", TF_CLI_CONFIG_FILE: "/home/u/.terraformrc" });

  it("online: the user's own config and credentials, no override, a normal refreshing plan", async () => {
    // Arrange: a stale override from an interrupted offline run must not reach an online plan.
    writeFileSync(join(stackDir, OFFLINE_OVERRIDE_FILE), "{}");
    const lines: string[] = [];
    // Act
    const { plan } = await planStack({ stackDir, mode: "online", terraform: bin, env: userEnv(), log: (l) => lines.push(l) });
    // Assert
    expect(plan.format_version).toBe("1.2");
    const [init, planCall, show] = calls();
    expect(init.args).toEqual(["init", "-input=false", "-no-color"]);
    expect(planCall.args.slice(0, 3)).toEqual(["plan", "-input=false", "-no-color"]);
    expect(planCall.args).not.toContain("-refresh=false");
    expect(show.args.slice(0, 3)).toEqual(["show", "-json", "-no-color"]);
    for (const call of calls()) {
      expect(call.override).toBeNull();
      expect(call.env).toEqual({ TF_CLI_CONFIG_FILE: "/home/u/.terraformrc", AWS_PROFILE: "prod", AWS_ACCESS_KEY_ID: "AKIAREAL" });
    }
    expect(lines[0]).toBe("plan: removed a stale offline override from an interrupted run");
  });

  it("offline: mirror-only CLI config, private data dir, no user identity, override present only while terraform runs", async () => {
    const seed = { version: 4 as const, terraform_version: "1.0.0", serial: 1, lineage: "x", outputs: {}, resources: [] };
    await planStack({ stackDir, mode: "offline", terraform: bin, mirror: join(dir, "mirror"), seed, env: userEnv(), log: () => undefined });
    const all = calls();
    expect(all.map((c) => c.args[0])).toEqual(["init", "plan", "show"]);
    expect(all[1].args).toContain("-refresh=false");
    for (const call of all) {
      expect(call.env.AWS_PROFILE).toBeUndefined();
      expect(call.env.AWS_ACCESS_KEY_ID).toBeUndefined();
      expect(call.env.TF_CLI_CONFIG_FILE).toMatch(/offline\.tfrc$/);
      expect(call.env.TF_DATA_DIR).toMatch(/\.terraform$/);
      expect(call.env.TF_DATA_DIR!.startsWith(stackDir)).toBe(false);
      expect(call.override?.provider.aws[0]).toMatchObject({ skip_credentials_validation: true, skip_requesting_account_id: true, skip_metadata_api_check: true });
    }
    const statePath: string = all[1].override!.terraform.backend.local.path;
    expect(statePath.startsWith(stackDir)).toBe(false);
    // Everything temporary is gone afterwards: the override, the seeded state, the CLI config.
    expect(existsSync(join(stackDir, OFFLINE_OVERRIDE_FILE))).toBe(false);
    expect(existsSync(statePath)).toBe(false);
    expect(existsSync(all[0].env.TF_CLI_CONFIG_FILE!)).toBe(false);
  });

  it("offline: leaves the stack's lock file as it found it (absent, or with its original content)", async () => {
    const run = () => planStack({ stackDir, mode: "offline", terraform: bin, mirror: join(dir, "mirror"), env: userEnv(), log: () => undefined });
    await run();
    expect(existsSync(join(stackDir, ".terraform.lock.hcl"))).toBe(false);
    writeFileSync(join(stackDir, ".terraform.lock.hcl"), "# recorded online\n");
    await run();
    expect(readFileSync(join(stackDir, ".terraform.lock.hcl"), "utf8")).toBe("# recorded online\n");
  });

  it("removes the override when terraform fails, and rejects with its output", async () => {
    const env = { ...userEnv(), FAKE_FAIL: "plan" };
    await expect(planStack({ stackDir, mode: "offline", terraform: bin, mirror: join(dir, "mirror"), env, log: () => undefined })).rejects.toThrow(TerraformCommandError);
    expect(existsSync(join(stackDir, OFFLINE_OVERRIDE_FILE))).toBe(false);
  });
});
