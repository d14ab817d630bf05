import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { TerraformCommandError, TerraformNotAvailableError } from "./errors";
import { describeRequirement, type ProviderRequirement } from "./required-providers";

export const MIRROR_ENV = "TF_PROVIDER_MIRROR";
export const TERRAFORM_BIN_ENV = "TERRAFORM_BIN";

/**
 * The versions of one provider a filesystem mirror holds, in either layout `terraform providers mirror` writes:
 * unpacked (`<host>/<ns>/<type>/<version>/<os>_<arch>/`) or packed (`terraform-provider-<type>_<version>_<os>_<arch>.zip`).
 */
export function mirroredVersions(mirror: string, source: string): string[] {
  const dir = join(mirror, ...source.split("/"));
  if (!existsSync(dir)) return [];
  const type = source.split("/").pop()!;
  const versions = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && /^\d+\.\d+\.\d+/.test(entry.name)) versions.add(entry.name);
    const packed = new RegExp(`^terraform-provider-${type}_(\\d+\\.\\d+\\.\\d+[^_]*)_`).exec(entry.name);
    if (entry.isFile() && packed) versions.add(packed[1]!);
  }
  return [...versions].sort();
}

/** True when the mirror holds the pinned version (or, for a range, any version: terraform then picks or refuses). */
function holds(mirror: string, r: ProviderRequirement): boolean {
  const versions = mirroredVersions(mirror, r.source);
  return r.exactVersion ? versions.includes(r.exactVersion) : versions.length > 0;
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

const MIRROR_FIX =
  `run 'terraform providers mirror <dir>' in the synthesized stack's folder on a machine with network and set ${MIRROR_ENV}=<dir>, or plan online (with network, terraform init downloads it)`;

function whatItHolds(mirror: string, providers: readonly ProviderRequirement[]): string {
  const held = providers.flatMap((r) => mirroredVersions(mirror, r.source).map((v) => `${r.source.split("/").slice(1).join("/")} ${v}`));
  return held.length ? `holds ${held.join(", ")}` : "holds none of them";
}

/**
 * The provider mirror for a stack: `$TF_PROVIDER_MIRROR`, else the first known location holding every provider the
 * stack's `required_providers` asks for (see {@link readRequiredProviders}). The error names the provider and
 * version missing, what each place holds instead, and the fix.
 */
export function findProviderMirror(providers: readonly ProviderRequirement[], env: NodeJS.ProcessEnv = process.env): string {
  const needed = providers.map(describeRequirement).join(", ") || "no providers";
  const holdsAll = (mirror: string) => providers.every((r) => holds(mirror, r));
  const configured = env[MIRROR_ENV];
  if (configured) {
    if (holdsAll(configured)) return configured;
    const missing = providers.filter((r) => !holds(configured, r));
    throw new TerraformNotAvailableError(
      `${MIRROR_ENV}=${configured} holds no ${missing.map((r) => `${r.source}/${r.exactVersion ?? "<any version>"}`).join(", ")} (the synthesized stack requires ${needed}; it ${whatItHolds(configured, providers)}); ${MIRROR_FIX}`,
    );
  }
  const candidates = mirrorCandidates(env);
  const found = candidates.find(holdsAll);
  if (found) return found;
  const seen = candidates.filter((c) => existsSync(c)).map((c) => `${c} ${whatItHolds(c, providers)}`);
  throw new TerraformNotAvailableError(
    `no filesystem mirror holds what the synthesized stack requires (${needed})${seen.length ? `: ${seen.join("; ")}` : ""}; set ${MIRROR_ENV} to a directory laid out as <dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/: ${MIRROR_FIX}`,
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
