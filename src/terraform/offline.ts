import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { TerraformCommandError, TerraformNotAvailableError } from "./errors";

/** hashicorp/aws version that @cdktf/provider-aws 20.1.0 is generated from. */
export const AWS_PROVIDER_VERSION = "5.100.0";
export const MIRROR_ENV = "TF_PROVIDER_MIRROR";
export const TERRAFORM_BIN_ENV = "TERRAFORM_BIN";
const PROVIDER_PATH = ["registry.terraform.io", "hashicorp", "aws", AWS_PROVIDER_VERSION];

function hasProvider(mirror: string): boolean {
  return existsSync(join(mirror, ...PROVIDER_PATH));
}

/** Places a machine may keep a filesystem mirror of providers (the first is where this project's machines keep it). */
function mirrorCandidates(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? homedir();
  return [
    "/opt/tf-plugins",
    join(home, ".terraform.d", "plugins"),
    join(home, ".local", "share", "terraform", "plugins"),
    "/usr/local/share/terraform/plugins",
    "/usr/share/terraform/plugins",
  ];
}

/** The provider mirror: `$TF_PROVIDER_MIRROR`, else the first known location holding hashicorp/aws 5.100.0. */
export function findProviderMirror(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env[MIRROR_ENV];
  if (configured) {
    if (hasProvider(configured)) return configured;
    throw new TerraformNotAvailableError(
      `${MIRROR_ENV}=${configured} holds no ${PROVIDER_PATH.join("/")}; point ${MIRROR_ENV} at a filesystem mirror that does (terraform providers mirror <dir> makes one)`,
    );
  }
  const found = mirrorCandidates(env).find(hasProvider);
  if (found) return found;
  throw new TerraformNotAvailableError(
    `no filesystem mirror of hashicorp/aws ${AWS_PROVIDER_VERSION} found; set ${MIRROR_ENV} to a directory laid out as <dir>/${PROVIDER_PATH.join("/")}/<os>_<arch>/ (run 'terraform providers mirror <dir>' once on a machine with network)`,
  );
}

/** The terraform binary: `$TERRAFORM_BIN`, else the first `terraform` on PATH; undefined when there is none. */
export function findTerraform(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env[TERRAFORM_BIN_ENV]) return existsSync(env[TERRAFORM_BIN_ENV]!) ? env[TERRAFORM_BIN_ENV] : undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "terraform");
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export function requireTerraform(env: NodeJS.ProcessEnv = process.env): string {
  const bin = findTerraform(env);
  if (!bin) throw new TerraformNotAvailableError(`no terraform CLI found on PATH; install Terraform >= 1.5 or set ${TERRAFORM_BIN_ENV}`);
  return bin;
}

/** A CLI config that installs providers only from the mirror: `terraform init` never reaches the network. */
export function writeOfflineCliConfig(dir: string, mirror: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "offline.tfrc");
  writeFileSync(
    file,
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["registry.terraform.io/hashicorp/*"]\n  }\n}\n`,
  );
  return file;
}

/** Environment for an offline terraform run: our CLI config, no update checks, no prompts. */
export function offlineTerraformEnv(cliConfigFile: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, TF_CLI_CONFIG_FILE: cliConfigFile, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
}

export interface TerraformRun {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs terraform and resolves with its output; rejects with a {@link TerraformCommandError} on a non-zero exit. */
export function runTerraform(bin: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<TerraformRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve({ stdout, stderr }) : reject(new TerraformCommandError(args, code, stderr || stdout))));
  });
}
