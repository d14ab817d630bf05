import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { withoutAwsIdentity } from "./credentials";
import { startDefinitionValidator } from "./definition-validator";
import { PlanInputError } from "./errors";
import { removeOfflineOverride, writeOfflineOverride } from "./offline-override";
import { offlineTerraformEnv, runTerraform, writeOfflineCliConfig } from "./offline";
import { isPlanJson, type PlanJson } from "./plan-json";
import { timed, type Log } from "./progress";
import type { ReviewMode } from "./review/types";
import type { SeedState } from "./seed-state";

export interface PlanStackOptions {
  readonly stackDir: string;
  readonly mode: ReviewMode;
  readonly terraform: string;
  /** Provider mirror; required offline. */
  readonly mirror?: string;
  /** Offline only: plan against this state (with `-refresh=false`) instead of an empty one. */
  readonly seed?: SeedState;
  readonly env: NodeJS.ProcessEnv;
  readonly log: Log;
  /** Prefix of progress lines, e.g. "base". */
  readonly label?: string;
}

/** Cleanups of runs in progress, for the CLI's Ctrl-C handler: the override file must never outlive a run. */
const inFlight = new Set<() => void>();
export function cleanupInFlightRuns(): void {
  for (const cleanup of [...inFlight]) cleanup();
}

/**
 * `terraform init`, `plan -out` and `show -json` in a synthesized stack directory; resolves with the plan JSON.
 * Offline: mirror-only CLI config, override file with placeholder credentials and a temporary state, a private
 * TF_DATA_DIR (the stack's own `.terraform` stays as `cdktf deploy` left it), nothing downloaded.
 * Online: the user's own configuration, credentials and backend, no override.
 */
export interface PlanStackResult {
  readonly plan: PlanJson;
  /** State machine definitions checked by the local ValidateStateMachineDefinition stand-in (offline). */
  readonly definitionsValidated: number;
}

export async function planStack(options: PlanStackOptions): Promise<PlanStackResult> {
  const { stackDir, terraform, log } = options;
  const prefix = options.label ? `${options.label}: ` : "";
  const work = mkdtempSync(join(tmpdir(), "plan-review-"));
  const planFile = join(work, "plan.tfplan");
  let validator: Awaited<ReturnType<typeof startDefinitionValidator>> | undefined;
  // An offline init records only the mirror's checksum for this platform in the lock file; put back what was there
  // so a later online `init` (perhaps on another platform) is not refused over a checksum it never recorded.
  const lockFile = join(stackDir, ".terraform.lock.hcl");
  const lockBefore = options.mode === "offline" && existsSync(lockFile) ? readFileSync(lockFile, "utf8") : undefined;
  const cleanup = () => {
    if (options.mode === "offline") {
      removeOfflineOverride(stackDir);
      if (lockBefore === undefined) rmSync(lockFile, { force: true });
      else writeFileSync(lockFile, lockBefore);
    }
    rmSync(work, { recursive: true, force: true });
  };
  inFlight.add(cleanup);
  try {
    let env: NodeJS.ProcessEnv;
    if (options.mode === "offline") {
      if (!options.mirror) throw new PlanInputError("an offline plan needs the provider mirror (TF_PROVIDER_MIRROR)");
      const statePath = join(work, "terraform.tfstate");
      if (options.seed) writeFileSync(statePath, JSON.stringify(options.seed));
      validator = await startDefinitionValidator();
      writeOfflineOverride(stackDir, { statePath, sfnEndpoint: validator.endpoint });
      const empty = join(work, "empty-aws-config");
      writeFileSync(empty, "");
      env = { ...offlineTerraformEnv(writeOfflineCliConfig(work, options.mirror), withoutAwsIdentity(options.env, empty)), TF_DATA_DIR: join(work, ".terraform") };
    } else {
      if (removeOfflineOverride(stackDir)) log(`plan: ${prefix}removed a stale offline override from an interrupted run`);
      env = { ...options.env, TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
    }
    const run = (args: string[]) => runTerraform(terraform, args, { cwd: stackDir, env });

    await timed(log, `${prefix}terraform init (${options.mode === "offline" ? `offline, mirror ${options.mirror}` : "online"})`, () =>
      run(["init", "-input=false", "-no-color"]),
    );
    const planArgs = ["plan", "-input=false", "-no-color", `-out=${planFile}`];
    if (options.seed) planArgs.push("-refresh=false");
    await timed(log, `${prefix}terraform plan${options.seed ? " -refresh=false (state seeded from the baseline)" : options.mode === "offline" ? " (empty state)" : ""}`, () => run(planArgs));
    const { stdout } = await timed(log, `${prefix}terraform show -json`, () => run(["show", "-json", "-no-color", planFile]));
    const plan = JSON.parse(stdout) as unknown;
    if (!isPlanJson(plan)) throw new PlanInputError(`terraform show -json printed something that is not a plan (format_version missing) in ${stackDir}`);
    return { plan, definitionsValidated: validator?.calls ?? 0 };
  } finally {
    await validator?.close();
    cleanup();
    inFlight.delete(cleanup);
  }
}
