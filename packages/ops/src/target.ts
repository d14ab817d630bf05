import { relative, resolve } from "node:path";
import { DEFAULT_STATE_FILE, isStateLive, readStateFile, type LocalCloudState } from "@effectively-once/contract";
import { TargetError, UsageError } from "./errors";
import { readOutputsFile } from "./outputs-file";

/** How the operator named the stack to work on (the CLI's target options). */
export interface TargetOptions {
  /** The local cloud that `npm start -- --serve` runs (its state file). */
  readonly local?: boolean;
  /** State file of the local cloud (implies `local`); default `.local-cloud/state.json`. */
  readonly stateFile?: string;
  /** `cdktf deploy --outputs-file` of a deployed stack. */
  readonly outputsFile?: string;
  /** Stack in the outputs file (needed when it holds several). */
  readonly stack?: string;
  readonly sqsEndpoint?: string;
  readonly dynamodbEndpoint?: string;
  /** Overrides the `region` output. */
  readonly region?: string;
}

export const TargetKind = { Local: "local", Deployed: "deployed" } as const;
export type TargetKind = (typeof TargetKind)[keyof typeof TargetKind];

/** A resolved target: where to send requests and the stack's outputs. */
export interface Target {
  readonly kind: TargetKind;
  /** For messages: "the local cloud (.local-cloud/state.json)" or "stack payments-pipeline in outputs.json". */
  readonly label: string;
  readonly region: string;
  /** Explicit endpoints; absent = the AWS default for the region. */
  readonly endpoints: { readonly sqs?: string; readonly dynamodb?: string; readonly lambda?: string; readonly stepfunctions?: string };
  readonly outputs: Record<string, unknown>;
}

export interface TargetDeps {
  readonly readState?: (file: string) => LocalCloudState | undefined;
  readonly isAlive?: (state: LocalCloudState) => boolean;
}

const START_HINT = "start it with `npm start -- --serve`";

/** Turns the target options into a Target; every problem is one sentence naming the option or file and the fix. */
export function resolveTarget(options: TargetOptions, deps: TargetDeps = {}): Target {
  const wantsLocal = options.local === true || options.stateFile !== undefined;
  if (wantsLocal && options.outputsFile !== undefined) {
    throw new UsageError("--local/--state and --outputs-file name two targets: give one of them");
  }
  if (!wantsLocal && options.outputsFile === undefined) {
    throw new UsageError("no target: add --local (the cloud `npm start -- --serve` runs) or --outputs-file outputs.json (a deployed stack)");
  }
  if (wantsLocal && options.stack !== undefined) throw new UsageError("--stack selects a stack in --outputs-file; the local cloud runs one stack");
  const endpoints = { sqs: checkUrl(options.sqsEndpoint, "--sqs-endpoint"), dynamodb: checkUrl(options.dynamodbEndpoint, "--dynamodb-endpoint") };
  return wantsLocal ? localTarget(options, endpoints, deps) : deployedTarget(options, endpoints);
}

function localTarget(options: TargetOptions, overrides: Target["endpoints"], deps: TargetDeps): Target {
  const file = options.stateFile ?? DEFAULT_STATE_FILE;
  const shown = displayPath(file);
  let state: LocalCloudState | undefined;
  try {
    state = (deps.readState ?? readStateFile)(file);
  } catch (error) {
    throw new TargetError(`cannot use the local cloud state file ${shown}: ${(error as Error).message}`, { cause: error });
  }
  if (!state) throw new TargetError(`no local cloud is running (no ${shown}): ${START_HINT}`);
  if (!(deps.isAlive ?? isStateLive)(state)) {
    throw new TargetError(`the local cloud that wrote ${shown} (pid ${state.pid}) is not running any more: ${START_HINT}`);
  }
  const region = options.region ?? state.region ?? stringOutput(state.outputs, "region") ?? "us-east-1";
  return {
    kind: TargetKind.Local,
    label: `the local cloud (${shown})`,
    region,
    // A cloud started before the local Lambda endpoint has none: ops then cannot read the function's configuration.
    endpoints: {
      sqs: overrides.sqs ?? state.endpoints.sqs,
      dynamodb: overrides.dynamodb ?? state.endpoints.dynamodb,
      ...(state.endpoints.lambda ? { lambda: state.endpoints.lambda } : {}),
      ...(state.endpoints.stepfunctions ? { stepfunctions: state.endpoints.stepfunctions } : {}),
    },
    outputs: { ...state.outputs },
  };
}

function deployedTarget(options: TargetOptions, endpoints: Target["endpoints"]): Target {
  const file = options.outputsFile!;
  const { stackName, outputs } = readOutputsFile(file, options.stack);
  const label = stackName ? `stack ${stackName} in ${displayPath(file)}` : displayPath(file);
  const region = options.region ?? stringOutput(outputs, "region");
  if (!region) throw new TargetError(`${label} has no "region" output: pass --region`);
  return { kind: TargetKind.Deployed, label, region, endpoints, outputs };
}

/** The target options as an operator would type them again (for the commands other commands suggest). */
export function targetArguments(options: TargetOptions): string[] {
  const out: string[] = [];
  if (options.stateFile !== undefined) out.push("--state", options.stateFile);
  else if (options.local) out.push("--local");
  if (options.outputsFile !== undefined) out.push("--outputs-file", options.outputsFile);
  if (options.stack !== undefined) out.push("--stack", options.stack);
  if (options.region !== undefined) out.push("--region", options.region);
  if (options.sqsEndpoint !== undefined) out.push("--sqs-endpoint", options.sqsEndpoint);
  if (options.dynamodbEndpoint !== undefined) out.push("--dynamodb-endpoint", options.dynamodbEndpoint);
  return out;
}

function checkUrl(value: string | undefined, option: string): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${option} "${value}" is not a URL: use e.g. http://127.0.0.1:4566`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${option} "${value}" must be an http(s) URL`);
  return value.replace(/\/+$/, "");
}

function stringOutput(outputs: Record<string, unknown>, name: string): string | undefined {
  const value = outputs[name];
  return typeof value === "string" && value ? value : undefined;
}

function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel && !rel.startsWith("..") ? rel : resolve(file);
}
