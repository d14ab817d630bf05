/**
 * The probe stack verify deploys is valid Terraform, installed the way verify installs it: `terraform init` from the
 * provider mirror only (nothing downloaded), then `terraform validate`. Its names carry the probe prefix and the run's
 * probe id (two runs with one prefix share no AWS name), its tables can be destroyed, and its workflow logs each
 * execution's input; a prefix the probe id makes too long is refused naming both parts; `--destroy` acts only on a
 * local state file holding the probe stack's resources, and a destroy removes the state file only once it destroyed
 * every resource the state held.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProviderMirror, offlineTerraformEnv, requireTerraform, runTerraform, writeOfflineCliConfig } from "../../src/terraform/offline";
import { readRequiredProviders } from "../../src/terraform/required-providers";
import { VerifyUsageError } from "../../src/verify/errors";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";
import { terraformDestroy } from "../../src/verify/targets";

/** Names unique only within their parent (a role's policy, a log group's metric filter or stream): they cannot collide across stacks. */
const PARENT_SCOPED = new Set(["aws_iam_role_policy", "aws_cloudwatch_log_metric_filter", "aws_cloudwatch_log_stream"]);

/** Every AWS name a synthesized stack gives its resources (`name`, `function_name`, `alarm_name`, `dashboard_name`). */
function awsNames(stack: ProbeStack): string[] {
  return Object.entries(stack.stack.resources)
    .filter(([type]) => !PARENT_SCOPED.has(type))
    .flatMap(([, byId]) =>
      Object.values(byId).flatMap((body) =>
        Object.entries(body as Record<string, unknown>)
          .filter(([key, value]) => ["name", "function_name", "alarm_name", "dashboard_name"].includes(key) && typeof value === "string" && !value.startsWith("${"))
          .map(([, value]) => value as string),
      ),
    );
}

let stack: ProbeStack;
beforeAll(() => {
  stack = synthProbeStack({ PIPELINE_APP: "payments" }, "payments", "t1");
}, 60_000);
afterAll(() => stack?.cleanup());

describe("The probe stack", () => {
  it("passes terraform init from the provider mirror and terraform validate", async () => {
    const env = offlineTerraformEnv(writeOfflineCliConfig(join(stack.stackDir, ".verify-terraform"), findProviderMirror(readRequiredProviders(stack.stackDir))), process.env);
    const bin = requireTerraform();
    await runTerraform(bin, ["init", "-input=false", "-no-color"], { cwd: stack.stackDir, env });
    const validate = await runTerraform(bin, ["validate", "-no-color"], { cwd: stack.stackDir, env });
    expect(validate.stdout).toContain("The configuration is valid");
  }, 120_000);

  it("is the app's stack under its own names, destroyable, with the workflow's inputs in its logs", () => {
    expect(stack.config).toMatchObject({ stackName: "payments-pipeline-verify-t1", namePrefix: "payments-vfy-t1" });
    for (const name of Object.values(stack.names)) expect(name).toContain("payments-vfy-t1");
    const tables = Object.values(stack.stack.resources.aws_dynamodb_table ?? {}) as { deletion_protection_enabled?: boolean }[];
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) expect(table.deletion_protection_enabled).not.toBe(true);
    const machine = Object.values(stack.stack.resources.aws_sfn_state_machine ?? {})[0] as { logging_configuration: { level: string; include_execution_data: boolean } };
    expect(machine.logging_configuration).toMatchObject({ level: "ALL", include_execution_data: true });
  });
});

describe("Two runs with one prefix in one account and region", () => {
  it("deploy stacks that share no AWS name, no stack name and no state file", () => {
    const other = synthProbeStack({ PIPELINE_APP: "payments" }, "payments");
    try {
      const mine = awsNames(stack);
      // The role names, the dashboard, the queues, tables, function, state machine, pipe, log groups, alarms.
      expect(mine.length).toBeGreaterThan(25);
      expect(mine.filter((name) => awsNames(other).includes(name))).toEqual([]);
      expect(other.probeId).toMatch(/^[a-z0-9]{6}$/);
      expect(other.config.namePrefix).toBe(`payments-vfy-${other.probeId}`);
      expect(other.config.stackName).not.toBe(stack.config.stackName);
      expect(other.stateFile).not.toBe(stack.stateFile);
    } finally {
      other.cleanup();
    }
  }, 60_000);

  it("keep the state of each beside the working folder, named for its probe id", () => {
    expect(stack.stateFile).toBe(join(process.cwd(), "terraform.payments-pipeline-verify-t1.tfstate"));
    expect(stack.destroyCommand).toBe("npx effectively-once verify --target aws --destroy --yes --probe-id t1 --app payments");
  });
});

describe("A prefix the probe id makes too long", () => {
  it("is refused with the team's prefix, what verify adds and the construct's rule", () => {
    // 35 characters fit the team's own stack (the namePrefix rule allows 40); with "-vfy-t1" they are 42.
    const prefix = "p".repeat(35);
    const refused = (() => {
      try {
        synthProbeStack({ PIPELINE_APP: "payments", PIPELINE_NAME_PREFIX: prefix }, "payments", "t1").cleanup();
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(VerifyUsageError);
    expect(refused?.message).toContain(`the probe stack's namePrefix "${prefix}-vfy-t1" is PIPELINE_NAME_PREFIX "${prefix}" plus "-vfy-t1" (7 characters: verify's suffix and the probe id), and the construct refuses it: IdempotentPipeline: `);
    expect(refused?.message).toContain("use 1-40 letters, digits, '-' or '_'");
    expect(refused?.message).toMatch(/Fix: a shorter --probe-id \(1-8 characters\), or a shorter PIPELINE_NAME_PREFIX for the verify run$/);
  }, 60_000);
});

describe("Function: terraformDestroy (verify --destroy, and the teardown of every run)", () => {
  /**
   * A terraform stand-in that records its arguments; `show` prints $FAKE_SHOW (the state as `terraform show -json`
   * gives it), `destroy` prints $FAKE_DESTROY and exits $FAKE_DESTROY_EXIT: only the sequence and the counts are under test.
   */
  function fakeTerraform(dir: string, show: unknown, destroyOut: string, destroyExit = 0): { env: NodeJS.ProcessEnv; calls: () => string[] } {
    const log = join(dir, "calls.log");
    const bin = join(dir, "terraform");
    writeFileSync(bin, `#!/bin/sh\necho "$1" >> "${log}"\ncase "$1" in\n  show) printf '%s' "$FAKE_SHOW" ;;\n  destroy) echo "$FAKE_DESTROY"; exit $FAKE_DESTROY_EXIT ;;\nesac\nexit 0\n`);
    chmodSync(bin, 0o755);
    rmSync(log, { force: true });
    const env = { ...process.env, TERRAFORM_BIN: bin, FAKE_SHOW: JSON.stringify(show), FAKE_DESTROY: destroyOut, FAKE_DESTROY_EXIT: String(destroyExit) };
    return { env, calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []) };
  }

  /** A state as `terraform show -json` prints it: the probe stack's queue and role (named for it), a data source, and `extra` resources. */
  const shown = (extra: { address: string; values: unknown }[] = [], own = true) => ({
    format_version: "1.0",
    values: {
      root_module: {
        resources: [
          ...(own
            ? [
                { address: "aws_sqs_queue.q", mode: "managed", values: { name: `${stack.config.namePrefix}-queue`, url: `https://sqs.us-east-1.amazonaws.com/1/${stack.config.namePrefix}-queue` } },
                { address: "aws_iam_role_policy_attachment.p", mode: "managed", values: { role: `${stack.config.namePrefix}-role`, policy_arn: "arn:aws:iam::aws:policy/X" } },
              ]
            : []),
          { address: "data.aws_region.current", mode: "data", values: { name: "us-east-1" } },
          ...extra.map((r) => ({ ...r, mode: "managed" })),
        ],
      },
    },
  });

  let dir: string;
  let state: string;
  let left: ProbeStack;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "verify-destroy-"));
    state = join(dir, "terraform.payments-pipeline-verify-t1.tfstate");
    left = { ...stack, stateFile: state };
    writeFileSync(state, "{}");
    writeFileSync(`${state}.backup`, "{}");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const kept = () => [existsSync(state), existsSync(`${state}.backup`)];

  it("destroys, and removes the state file and its backup once terraform destroyed every resource the state held", async () => {
    const tf = fakeTerraform(dir, shown(), "Destroy complete! Resources: 2 destroyed.");
    await expect(terraformDestroy(tf.env)(left, () => undefined)).resolves.toBe(2);
    expect(tf.calls()).toEqual(["init", "show", "destroy"]);
    expect(kept()).toEqual([false, false]);
  });

  it("keeps them when the destroy failed, or destroyed fewer than the state held (a refresh in another account or region)", async () => {
    const failed = fakeTerraform(dir, shown(), "Error: no credentials", 1);
    await expect(terraformDestroy(failed.env)(left, () => undefined)).rejects.toThrow(/destroy/);
    expect(kept()).toEqual([true, true]);
    const none = fakeTerraform(dir, shown(), "Destroy complete! Resources: 0 destroyed.");
    await expect(terraformDestroy(none.env)(left, () => undefined)).rejects.toThrow(
      `terraform destroy of the probe stack payments-pipeline-verify-t1 destroyed 0 of the 2 resources its state held; kept its state ${state} and ${state}.backup (the state before the destroy)`,
    );
    expect(kept()).toEqual([true, true]);
  });

  it("refuses, destroying nothing, without the state file, with a remote backend, an empty state or a resource not named for the probe stack", async () => {
    const tf = fakeTerraform(dir, shown(), "Destroy complete! Resources: 2 destroyed.");
    const missing = { ...stack, stateFile: join(dir, "terraform.other-verify-t1.tfstate") };
    await expect(terraformDestroy(tf.env)(missing, () => undefined)).rejects.toThrow(`--destroy: no state file ${missing.stateFile}, so nothing was destroyed: run the command in the folder where the run ran`);
    await expect(terraformDestroy(tf.env)({ ...stack, stateFile: undefined }, () => undefined)).rejects.toThrow(
      "--destroy: the probe stack payments-pipeline-verify-t1 has a remote backend, whose state may be any stack's (the team's own, even)",
    );
    expect(tf.calls()).toEqual([]);
    const empty = fakeTerraform(dir, shown([], false), "Destroy complete! Resources: 0 destroyed.");
    await expect(terraformDestroy(empty.env)(left, () => undefined)).rejects.toThrow(`--destroy: the state file ${state} holds no resources (0)`);
    const team = fakeTerraform(dir, shown([{ address: "aws_sqs_queue.theirs", values: { name: "payments-queue", tags_all: { stack: "payments-pipeline" } } }]), "Destroy complete! Resources: 3 destroyed.");
    await expect(terraformDestroy(team.env)(left, () => undefined)).rejects.toThrow(
      `--destroy: 1 of the 3 resources in ${state} are not named for the probe stack payments-pipeline-verify-t1 (name prefix payments-vfy-t1: aws_sqs_queue.theirs): nothing was destroyed`,
    );
    expect(team.calls()).toEqual(["init", "show"]);
    expect(kept()).toEqual([true, true]);
  });
});
