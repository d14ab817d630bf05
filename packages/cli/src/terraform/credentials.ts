import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** Environment variables that strip a terraform run of the user's AWS identity (offline plans use placeholders). */
const AWS_IDENTITY_VARIABLES = [
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_SECURITY_TOKEN",
  "AWS_PROFILE",
  "AWS_DEFAULT_PROFILE",
  "AWS_ROLE_ARN",
  "AWS_ROLE_SESSION_NAME",
  "AWS_WEB_IDENTITY_TOKEN_FILE",
  "AWS_CONTAINER_CREDENTIALS_FULL_URI",
  "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
  "AWS_CONTAINER_AUTHORIZATION_TOKEN",
] as const;

export interface FileSystem {
  exists(path: string): boolean;
  read(path: string): string;
}
const realFs: FileSystem = { exists: existsSync, read: (path) => readFileSync(path, "utf8") };

/** Config-file keys that make a profile able to produce credentials by itself. */
const CREDENTIAL_KEYS = /^\s*(aws_access_key_id|credential_process|sso_session|sso_start_url|role_arn|web_identity_token_file|credential_source)\s*=/m;

/**
 * Where AWS credentials would come from, in the order the SDKs look, or undefined when there are none that can be
 * seen without the network. (An EC2/ECS instance role is not detectable offline: pass `--online` there.)
 */
export function detectAwsCredentials(env: NodeJS.ProcessEnv, fs: FileSystem = realFs): string | undefined {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY";
  if (env.AWS_PROFILE) return `AWS_PROFILE=${env.AWS_PROFILE}`;
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE) return "AWS_WEB_IDENTITY_TOKEN_FILE";
  if (env.AWS_CONTAINER_CREDENTIALS_FULL_URI || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI) return "container credentials (AWS_CONTAINER_CREDENTIALS_*)";
  const home = env.HOME ?? homedir();
  const credentials = env.AWS_SHARED_CREDENTIALS_FILE || join(home, ".aws", "credentials");
  if (fs.exists(credentials) && /aws_access_key_id\s*=/.test(fs.read(credentials))) return `shared credentials file ${credentials}`;
  const config = env.AWS_CONFIG_FILE || join(home, ".aws", "config");
  if (fs.exists(config) && CREDENTIAL_KEYS.test(fs.read(config))) return `shared config file ${config}`;
  return undefined;
}

/** The environment for an offline terraform run: none of the user's AWS identity, no metadata service. */
export function withoutAwsIdentity(env: NodeJS.ProcessEnv, emptyFile: string): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of AWS_IDENTITY_VARIABLES) delete out[name];
  // Empty shared files: a profile with credential_process or SSO must not run during an offline plan.
  out.AWS_SHARED_CREDENTIALS_FILE = emptyFile;
  out.AWS_CONFIG_FILE = emptyFile;
  out.AWS_EC2_METADATA_DISABLED = "true";
  return out;
}

/**
 * `--online` without credentials the environment shows: asks STS who we are (an instance or container role answers
 * there), so a plan that cannot reach AWS stops before the synth with one line, not after it with terraform's.
 */
export async function confirmAwsIdentity(env: NodeJS.ProcessEnv): Promise<string> {
  const seen = detectAwsCredentials(env);
  if (seen) return seen;
  const { GetCallerIdentityCommand, STSClient } = await import("@aws-sdk/client-sts");
  const sts = new STSClient({ region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? "us-east-1", maxAttempts: 1 });
  try {
    const { Arn } = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: AbortSignal.timeout(10_000) });
    return `the caller ${Arn}`;
  } catch (error) {
    throw new Error(`--online needs AWS credentials, and none answer (${(error as Error).message.split("\n")[0]}): configure them (AWS_PROFILE, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, an instance role), or plan with --offline`, { cause: error });
  } finally {
    sts.destroy();
  }
}
