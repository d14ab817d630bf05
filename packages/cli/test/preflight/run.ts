import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { awsReader, type ReaderOptions } from "../../src/preflight/aws";
import { runPreflightCli } from "../../src/preflight/cli";
import { synthStack } from "@effectively-once/testing/stack";
import { startAccountStandIn, type AccountState } from "./account-stand-in";

export const ACCOUNT_ID = "123456789012";
const LAMBDA_QUOTAS = [{ code: "L-B99A9384", name: "Concurrent executions", value: 1000 }, { code: "L-2ACBD22F", name: "Function and layer storage", value: 80530636800 }];

/** A fresh account: nothing of the stack exists, default quotas, a user allowed everything. */
export const ACCOUNT: AccountState = {
  concurrentExecutions: 1000,
  unreservedConcurrentExecutions: 1000,
  functions: new Map(),
  quotas: new Map([["lambda", LAMBDA_QUOTAS], ["states", []], ["sqs", []], ["dynamodb", []]]),
  existing: new Set(),
  callerArn: `arn:aws:iam::${ACCOUNT_ID}:user/deployer`,
  summary: new Map([["Roles", 10], ["RolesQuota", 1000], ["RolePolicySizeQuota", 10240]]),
};

let dir: string | undefined;
const stackFiles = new Map<string, string>();
/** The test stack (prefix test, us-east-1) synthesized once per variant, written as a cdk.tf.json the CLI reads. */
export function stackFile(reservedConcurrency?: number, edit?: (json: { provider: Record<string, Record<string, unknown>[]> }) => void, key = String(reservedConcurrency)): string {
  dir ??= mkdtempSync(join(tmpdir(), "preflight-"));
  if (!stackFiles.has(key)) {
    const s = synthStack(reservedConcurrency === undefined ? {} : { function: { reservedConcurrency } });
    try {
      const json = s.json as unknown as { provider: Record<string, Record<string, unknown>[]> };
      edit?.(json);
      const file = join(dir, `stack-${key}.json`);
      writeFileSync(file, JSON.stringify(json));
      stackFiles.set(key, file);
    } finally {
      s.cleanup();
    }
  }
  return stackFiles.get(key)!;
}
export function removeStackFiles(): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

export interface RunOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Change the reader's options (an unreachable endpoint, a service that does not resolve, no credentials). */
  readonly options?: (o: ReaderOptions) => ReaderOptions;
}

/** Runs the CLI against a stand-in answering as `state` says; returns the exit code, the output and the calls made. */
export async function run(argv: string[], state: AccountState = ACCOUNT, how: RunOptions = {}) {
  const standIn = await startAccountStandIn(state);
  let out = "";
  const err: string[] = [];
  try {
    const code = await runPreflightCli(argv, {
      env: how.env ?? {},
      stdout: (t) => (out += t),
      stderr: (line) => err.push(line),
      reader: (options) => {
        const base: ReaderOptions = { ...options, endpoint: standIn.endpoint, credentials: { accessKeyId: "AKIAPREFLIGHTTEST000", secretAccessKey: "not-a-secret" } };
        return awsReader(how.options ? how.options(base) : base);
      },
    });
    return { code, out, err: err.join("\n"), seen: standIn.seen };
  } finally {
    await standIn.close();
  }
}
