import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Name of the override file written beside the synthesized stack for an offline plan. Terraform merges any
 * `*_override.tf.json` over the main configuration, so the app code never carries fake credentials; the file is
 * removed after the run (a stale one would send a later `cdktf deploy` to a temporary state with fake keys).
 */
export const OFFLINE_OVERRIDE_FILE = "offline-plan_override.tf.json";

/** Placeholder keys: the provider needs *some* static credentials before it skips validating them. */
export const OFFLINE_ACCESS_KEY = "AKIAOFFLINEPLAN00000";
const OFFLINE_SECRET_KEY = "offline-plan-not-a-secret";

export interface OfflineOverride {
  /** Where the local backend keeps state: a temporary directory, never the repository. */
  readonly statePath: string;
  /** Local endpoint answering Step Functions' ValidateStateMachineDefinition (see definition-validator.ts). */
  readonly sfnEndpoint: string;
  /** Local endpoint answering STS GetCallerIdentity (`data "aws_caller_identity"`); the same server by default. */
  readonly stsEndpoint?: string;
}

/**
 * The override body. Measured with hashicorp/aws 5.100.0 and no network:
 * - without `access_key`/`secret_key`: "No valid credential sources found";
 * - without `skip_credentials_validation`: STS GetCallerIdentity fails on DNS;
 * - without `skip_requesting_account_id`: "AWS account ID not previously found";
 * - without `skip_metadata_api_check`: the plan still works but waits on the EC2 metadata endpoint (~4 s slower);
 * - the `sfn` endpoint: planning a known, changed state machine definition calls ValidateStateMachineDefinition;
 * - the `sts` endpoint: `data "aws_caller_identity"` (the roles' trust conditions) calls GetCallerIdentity.
 * cdktf writes `backend "local" { path = "<project>/terraform.<stack>.tfstate" }`, i.e. into the repository: an
 * override backend block replaces it, so the plan neither reads a real state left there nor locks or writes it.
 */
export function offlineOverride(options: OfflineOverride): Record<string, unknown> {
  return {
    terraform: { backend: { local: { path: options.statePath } } },
    provider: {
      aws: [
        {
          access_key: OFFLINE_ACCESS_KEY,
          secret_key: OFFLINE_SECRET_KEY,
          skip_credentials_validation: true,
          skip_requesting_account_id: true,
          skip_metadata_api_check: true,
          endpoints: [{ sfn: options.sfnEndpoint, sts: options.stsEndpoint ?? options.sfnEndpoint }],
        },
      ],
    },
  };
}

export function writeOfflineOverride(stackDir: string, options: OfflineOverride): string {
  const file = join(stackDir, OFFLINE_OVERRIDE_FILE);
  writeFileSync(file, `${JSON.stringify(offlineOverride(options), null, 2)}\n`);
  return file;
}

/** Removes the override; true when one was there. */
export function removeOfflineOverride(stackDir: string): boolean {
  const file = join(stackDir, OFFLINE_OVERRIDE_FILE);
  if (!existsSync(file)) return false;
  rmSync(file, { force: true });
  return true;
}
