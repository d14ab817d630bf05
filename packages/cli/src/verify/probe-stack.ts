/**
 * The probe stack: the team's app (PIPELINE_APP, its settings) synthesized under a name of its own, with a no-op
 * function, logs that carry each execution's input (so verify can read what the state machine received), no
 * deletion protection (verify destroys it) and SQS's native DLQ moves allowed (the move probe needs one). `verify`
 * deploys only this stack, and sends probes only to the names read here. Its names carry a probe id, new for each run
 * unless given: two runs with one prefix in one account and region (two branches, two CI jobs) each deploy, probe and
 * destroy their own stack.
 */
import { randomInt } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StackConfig } from "@effectively-once/pipeline/settings";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import type { MessageProfile } from "@effectively-once/pipeline";
import { OutputName } from "@effectively-once/contract";
import { loadApp, loadProfile } from "@effectively-once/local-cloud/stack";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { AttributeRegistry, loadStackFile, resolveString, type StackFile } from "@effectively-once/local-cloud/emulators";
import { VerifyUsageError } from "./errors";

/** Appended to the team's stack name and name prefix, before the probe id: the probe stack never shares a resource name with theirs. */
const PROBE_STACK_SUFFIX = "-verify";
export const PROBE_PREFIX_SUFFIX = "-vfy";

/**
 * A probe id: lowercase letters and digits, which every AWS name, tag and file name the stack makes accepts; short,
 * since it lengthens every name (the construct's name rules then hold each one to its service's limit).
 */
const PROBE_ID = /^[a-z0-9]{1,8}$/;
const PROBE_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** A new id's length: 36^6 ≈ 2.2 billion ids, so two runs at once draw the same one about once in a billion pairs. */
const NEW_PROBE_ID_CHARS = 6;

/** A fresh probe id for one run. */
function newProbeId(): string {
  return Array.from({ length: NEW_PROBE_ID_CHARS }, () => PROBE_ID_ALPHABET[randomInt(PROBE_ID_ALPHABET.length)]).join("");
}

/** The id given with --probe-id, or a usage error naming the rule. */
export function checkedProbeId(id: string): string {
  if (PROBE_ID.test(id)) return id;
  throw new VerifyUsageError(`--probe-id: ${JSON.stringify(id)} is not a probe id: use 1-8 lowercase letters or digits, e.g. --probe-id ${newProbeId()} (the id of the run to destroy, as its first line printed it)`);
}

/** The no-op function the probe stack deploys instead of the team's side effect. */
/** The no-op function's source: TypeScript in the repository, compiled JavaScript in the installed package. */
const NOOP_FUNCTION_ENTRY = ["noop-function.ts", "noop-function.js"].map((file) => join(__dirname, file)).find((file) => existsSync(file)) ?? join(__dirname, "noop-function.ts");

/** The probe stack's settings on top of the team's: see the file's comment. */
const PROBE_OVERRIDES: PipelineOverrides = {
  function: { entry: NOOP_FUNCTION_ENTRY },
  deletionProtection: false,
  stateMachineLogLevel: "ALL",
  includeExecutionDataInLogs: true,
  allowUnguardedDlqMoves: true,
};

/** The names the probes address, read from the synthesized JSON: verify refuses outputs that name anything else. */
export interface ProbeNames {
  readonly queue: string;
  readonly dlq: string;
  readonly stateMachine: string;
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  readonly functionName: string;
  readonly workflowLogGroup: string;
}

export interface ProbeStack {
  readonly config: StackConfig;
  /** What makes this run's names its own: the prefix is `<team prefix>-vfy-<probeId>`, the stack `<team stack>-verify-<probeId>`. */
  readonly probeId: string;
  /** The local state file terraform keeps beside the working folder (the framework's default backend); absent with a remote backend. */
  readonly stateFile?: string;
  /** The command that destroys this probe stack when a run stopped before its teardown. */
  readonly destroyCommand: string;
  readonly stackDir: string;
  readonly stackFile: string;
  readonly stack: StackFile;
  readonly names: ProbeNames;
  /** The source queue's visibility timeout: when a failed record is due back. */
  readonly visibilityTimeoutSeconds: number;
  /** The workflow's definition, references resolved to placeholders: what TestState runs (Decode needs none of them). */
  readonly definition: string;
  readonly keyExpression: string;
  readonly profile: MessageProfile;
  /** The pipes that set no log configuration (a re-plan reads AWS's default back as a change): the offline prediction of the re-plan probe. */
  readonly pipesWithoutLogs: readonly string[];
  cleanup(): void;
}

/** The probe stack's config: the team's (environment and app defaults) with the suffixes and the probe id. */
function probeStackConfig(team: StackConfig, probeId: string): StackConfig {
  return { ...team, stackName: `${team.stackName}${PROBE_STACK_SUFFIX}-${probeId}`, namePrefix: `${team.namePrefix}${PROBE_PREFIX_SUFFIX}-${probeId}` };
}

/**
 * The construct's name rules refused the probe prefix: it is the team's plus what verify adds, which the construct's
 * message cannot know, so the error says both (a team prefix that fits its own stack may not fit the probe's).
 */
function probeNamesRefused(error: unknown, team: StackConfig, probe: StackConfig): unknown {
  // By name: the class may come from another copy of the pipeline package than the one this file would import.
  const problems = (error as { name?: string; problems?: readonly { prop: string }[] }).name === "InvalidPropError" ? ((error as { problems?: readonly { prop: string }[] }).problems ?? []) : [];
  if (!problems.some((p) => p.prop === "namePrefix")) return error;
  const added = probe.namePrefix.slice(team.namePrefix.length);
  return new VerifyUsageError(
    `the probe stack's namePrefix "${probe.namePrefix}" is PIPELINE_NAME_PREFIX "${team.namePrefix}" plus "${added}" (${added.length} characters: verify's suffix and the probe id), and the construct refuses it: ${(error as Error).message}. Fix: a shorter --probe-id (1-8 characters), or a shorter PIPELINE_NAME_PREFIX for the verify run`,
  );
}

/** The state file of the framework's default (local) backend, when the stack uses it. */
function localStateFile(stack: StackFile): string | undefined {
  const local = (stack.terraform.backend as { local?: { path?: unknown } } | undefined)?.local;
  return typeof local?.path === "string" ? local.path : undefined;
}

type Body = Record<string, unknown>;
const REFERENCE = /^\$\{([a-z0-9_]+)\.([^.}]+)\.[a-z_]+\}/;

/** The resource an output refers to (`${aws_sqs_queue.x.url}` → the queue's body). */
function referenced(stack: StackFile, output: string): Body {
  const value = String(stack.outputs[output]?.value ?? "");
  const m = REFERENCE.exec(value);
  const body = m ? stack.resources[m[1]]?.[m[2]] : undefined;
  if (!body) throw new Error(`the probe stack's output ${output} (${value}) names no resource of the stack`);
  return body as Body;
}

function resourceOfReference(stack: StackFile, text: string): Body {
  const m = REFERENCE.exec(text);
  const body = m ? stack.resources[m[1]]?.[m[2]] : undefined;
  if (!body) throw new Error(`the probe stack refers to ${text}, which is not one of its resources`);
  return body as Body;
}

/** Reads what the probes need from a synthesized probe stack. */
function readProbeStack(config: StackConfig, probe: { readonly id: string; readonly destroyCommand: string }, stackDir: string, profile: MessageProfile, cleanup: () => void): ProbeStack {
  const stackFile = join(stackDir, "cdk.tf.json");
  const stack = loadStackFile(stackFile);
  const registry = new AttributeRegistry(stack.resources, stack.data, stack.region);
  const name = (output: string, field = "name") => resolveString(String(referenced(stack, output)[field]), registry.lookup, output);
  const machine = referenced(stack, OutputName.StateMachineArn);
  const logging = (Array.isArray(machine.logging_configuration) ? machine.logging_configuration[0] : machine.logging_configuration) as Body | undefined;
  const logGroup = resourceOfReference(stack, String(logging?.log_destination ?? ""));
  // Unresolvable references (queue URLs exist only once deployed) become placeholders: Decode reads none of them.
  const definition = resolveString(String(machine.definition), (ref, usedBy) => {
    try {
      return registry.lookup(ref, usedBy);
    } catch {
      return `verify-placeholder-${ref.attribute}`;
    }
  }, "definition");
  const pipes = Object.entries(stack.resources.aws_pipes_pipe ?? {}) as [string, Body][];
  return {
    config,
    probeId: probe.id,
    stateFile: localStateFile(stack),
    destroyCommand: probe.destroyCommand,
    stackDir,
    stackFile,
    stack,
    names: {
      queue: name(OutputName.QueueUrl),
      dlq: name(OutputName.DlqUrl),
      stateMachine: name(OutputName.StateMachineArn),
      ledgerTable: name(OutputName.LedgerTable),
      idempotencyTable: name(OutputName.IdempotencyTable),
      functionName: name(OutputName.FunctionName, "function_name"),
      workflowLogGroup: resolveString(String(logGroup.name), registry.lookup, "workflow log group"),
    },
    visibilityTimeoutSeconds: Number(referenced(stack, OutputName.QueueUrl).visibility_timeout_seconds ?? 30),
    definition,
    keyExpression: String(stack.outputs[OutputName.BusinessKeyExpression]?.value ?? ""),
    profile,
    pipesWithoutLogs: pipes.filter(([, p]) => p.log_configuration === undefined).map(([id]) => `aws_pipes_pipe.${id}`),
    cleanup,
  };
}

/**
 * Synthesizes the probe stack of the app into a temporary folder (removed by `cleanup`), named with `probeId` (a new
 * one when left out).
 */
export function synthProbeStack(env: NodeJS.ProcessEnv, app?: string, probeId: string = newProbeId()): ProbeStack {
  const id = checkedProbeId(probeId);
  const team = stackConfigOf(env, loadApp(app));
  const config = probeStackConfig(team, id);
  const destroyCommand = `npx effectively-once verify --target aws --destroy --yes --probe-id ${id}${app ? ` --app ${app}` : ""}`;
  const outdir = mkdtempSync(join(tmpdir(), "verify-probe-stack-"));
  const cleanup = () => rmSync(outdir, { recursive: true, force: true });
  try {
    const { stackDir } = synthStack(config, { app, outdir, overrides: PROBE_OVERRIDES });
    return readProbeStack(config, { id, destroyCommand }, stackDir, loadProfile(app), cleanup);
  } catch (error) {
    cleanup();
    throw probeNamesRefused(error, team, config);
  }
}
