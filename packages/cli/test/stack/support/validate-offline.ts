import { findProviderMirror, offlineTerraformEnv, runTerraform, writeOfflineCliConfig } from "../../../src/terraform/offline";
import { readRequiredProviders } from "../../../src/terraform/required-providers";

/** `terraform init` and `terraform validate -json` of a synthesized stack, offline against the provider mirror. */
export async function validateOffline(terraform: string | undefined, stackDir: string, cliDir: string): Promise<{ valid: boolean; diagnostics: unknown[] }> {
  if (!terraform) throw new Error("terraform CLI not found on PATH: install Terraform >= 1.5, set TERRAFORM_BIN, or set SKIP_TERRAFORM_TESTS=1 to skip loudly");
  const env = offlineTerraformEnv(writeOfflineCliConfig(cliDir, findProviderMirror(readRequiredProviders(stackDir))));
  await runTerraform(terraform, ["init", "-backend=false", "-input=false", "-no-color"], { cwd: stackDir, env });
  const { stdout } = await runTerraform(terraform, ["validate", "-json", "-no-color"], { cwd: stackDir, env });
  return JSON.parse(stdout) as { valid: boolean; diagnostics: unknown[] };
}
