import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Region and fake credentials the local cloud uses everywhere, and its clients with it (nothing here reaches AWS). */
export const LOCAL_REGION = "us-east-1";
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" } as const;

/** Where `npm start -- --serve` leaves the running cloud's endpoints and names, for the operator CLI and users. */
export const DEFAULT_STATE_FILE = ".local-cloud/state.json";

/** What a client needs to reach a running local cloud. */
export interface LocalCloudState {
  readonly version: 1;
  readonly pid: number;
  readonly startedAt: string;
  readonly stackFile: string;
  readonly region: string;
  /** `stepfunctions` (the TestState endpoint) and `lambda` (GetFunctionConfiguration) are absent from state files written before they existed. */
  readonly endpoints: { readonly sqs: string; readonly dynamodb: string; readonly stepfunctions?: string; readonly lambda?: string };
  /** The stack's outputs with local values, named as `cdktf deploy --outputs-file` names them. */
  readonly outputs: Record<string, unknown>;
}

export function writeStateFile(state: LocalCloudState, file = DEFAULT_STATE_FILE): string {
  const path = resolve(file);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
  return path;
}

export function removeStateFile(file = DEFAULT_STATE_FILE): void {
  rmSync(resolve(file), { force: true });
}

/** Reads the state file; undefined when there is none. Throws with the path when it is not ours. */
export function readStateFile(file = DEFAULT_STATE_FILE): LocalCloudState | undefined {
  const path = resolve(file);
  if (!existsSync(path)) return undefined;
  const state = JSON.parse(readFileSync(path, "utf8")) as LocalCloudState;
  if (state.version !== 1 || !state.endpoints?.sqs || !state.endpoints?.dynamodb) {
    throw new Error(`${path} is not a local cloud state file (expected version 1 with endpoints)`);
  }
  return state;
}

/** True when the process that wrote the state is still alive. */
export function isStateLive(state: LocalCloudState): boolean {
  try {
    process.kill(state.pid, 0);
    return true;
  } catch {
    return false;
  }
}
