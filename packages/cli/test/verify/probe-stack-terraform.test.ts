/**
 * The probe stack verify deploys is valid Terraform, installed the way verify installs it: `terraform init` from the
 * provider mirror only (nothing downloaded), then `terraform validate`. Its names carry the probe prefix, its tables
 * can be destroyed, and its workflow logs each execution's input.
 */
import { join } from "node:path";
import { findProviderMirror, offlineTerraformEnv, requireTerraform, runTerraform, writeOfflineCliConfig } from "../../src/terraform/offline";
import { readRequiredProviders } from "../../src/terraform/required-providers";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";

let stack: ProbeStack;
beforeAll(() => {
  stack = synthProbeStack({ PIPELINE_APP: "payments" }, "payments");
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
    expect(stack.config).toMatchObject({ stackName: "payments-pipeline-verify", namePrefix: "payments-vfy" });
    for (const name of Object.values(stack.names)) expect(name).toContain("payments-vfy");
    const tables = Object.values(stack.stack.resources.aws_dynamodb_table ?? {}) as { deletion_protection_enabled?: boolean }[];
    expect(tables.length).toBeGreaterThan(0);
    for (const table of tables) expect(table.deletion_protection_enabled).not.toBe(true);
    const machine = Object.values(stack.stack.resources.aws_sfn_state_machine ?? {})[0] as { logging_configuration: { level: string; include_execution_data: boolean } };
    expect(machine.logging_configuration).toMatchObject({ level: "ALL", include_execution_data: true });
  });
});
