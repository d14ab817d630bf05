/**
 * `npx effectively-once verify --target aws|local`: the probes whose AWS behaviour the offline proof assumes but cannot see,
 * on a dedicated probe stack, with AWS's answers printed beside the local cloud's and each difference named.
 * Exit codes: 0 no difference, 1 a difference or a failed check, 2 usage, no --yes, a refusal or a run that failed.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { formatTable } from "@effectively-once/local-cloud/harness";
import { compareAnswers } from "./compare";
import { estimateCost, type CostEstimate } from "./cost";
import { VerifyError, VerifyUsageError } from "./errors";
import { checkedProbeId, synthProbeStack, type ProbeStack } from "./probe-stack";
import { PROBES } from "./probes";
import { verifyJson } from "./json";
import { formatReport } from "./report";
import { exitCodeOf, newRunId, plannedCalls, runProbes, withSession } from "./run";
import { localTarget, terraformDestroy, terraformTarget, type Target } from "./targets";
import { VerifyTarget, type AnswerSet, type Probe, type VerifyClock } from "./types";

const HELP = `Usage: npx effectively-once verify --target aws|local [options]

Runs the probes whose AWS behaviour the offline proof assumes on a dedicated probe stack (the app's settings, its
own name prefix, a no-op function), prints AWS's answers beside the local cloud's and names every difference.
--target aws deploys the probe stack with terraform, probes it and destroys it; --target local needs no account.
The probe stack's names carry a probe id, new for each run: <prefix>-vfy-<id>, stack <stack>-verify-<id>.

  --target T          aws or local
  --yes               with --target aws: deploy, probe and destroy (without it: the plan and the cost, exit 2)
  --dry-run           print every call the run would make, and the cost; make none
  --app A             the app (default PIPELINE_APP, else payments)
  --probe-id ID       the probe id (1-8 lowercase letters or digits; default: a new one)
  --destroy           with --target aws --probe-id ID --yes: destroy the probe stack a run left behind (its first
                      line names the id; run it where that run ran, with the same PIPELINE_* settings). Only from
                      the local state file of that run, holding resources all named for its probe stack; not with
                      --dry-run, --only, --record or --json
  --only P,P          run only these probes (${PROBES.map((p) => p.id).join(", ")})
  --aws-answers F     with --target local: compare with AWS's answers recorded in F
  --record F          write this run's answers (AWS's for --target aws) to F, for --aws-answers later
  --json              print the result as one JSON document on stdout instead of the report (ok, exitCode, target,
                      probeStack, cost with --target aws, plannedCalls with --dry-run, probes with their facts,
                      differences, failures); the progress and the probe stack's line go to stderr
  -h, --help          this text

Exit codes: 0 no difference, 1 a difference or a failed check, 2 usage, no --yes, a refusal or a run that failed
(one line on stderr, nothing on stdout with --json).
`;

export interface VerifyIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
  /** Where each target's probe stack lives, and how `--destroy` destroys one; tests replace the terraform ones. */
  readonly targets?: { readonly aws?: Target; readonly local?: Target; readonly destroy?: ReturnType<typeof terraformDestroy> };
  /** The AWS run's clock (tests on the local cloud move its clock instead of sleeping). */
  readonly awsClock?: VerifyClock;
  readonly runId?: string;
  /** The probe stack for a probe id (absent: a new one); tests give one synthesized once. */
  readonly probeStack?: (probeId?: string) => ProbeStack;
  /** Aborted on Ctrl-C: the probes stop and the probe stack is still destroyed. */
  readonly signal?: AbortSignal;
}

interface Options {
  readonly target: VerifyTarget;
  readonly yes: boolean;
  readonly dryRun: boolean;
  readonly app?: string;
  readonly probeId?: string;
  readonly destroy: boolean;
  readonly probes: readonly Probe[];
  readonly awsAnswers?: string;
  readonly record?: string;
  readonly json: boolean;
}

function parse(argv: readonly string[]): Options | "help" {
  const { values } = parseArgs({
    args: [...argv],
    options: { target: { type: "string" }, yes: { type: "boolean" }, "dry-run": { type: "boolean" }, app: { type: "string" }, "probe-id": { type: "string" }, destroy: { type: "boolean" }, only: { type: "string" }, "aws-answers": { type: "string" }, record: { type: "string" }, json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    strict: true,
  });
  if (values.help) return "help";
  if (values.target !== VerifyTarget.Aws && values.target !== VerifyTarget.Local) throw new VerifyUsageError(`--target: ${JSON.stringify(values.target ?? null)} is not a target: use --target aws or --target local`);
  if (values["probe-id"] !== undefined) checkedProbeId(values["probe-id"]);
  if (values.destroy && (values.target !== VerifyTarget.Aws || values["probe-id"] === undefined)) throw new VerifyUsageError("--destroy: only with --target aws and --probe-id <id> (the id the run to clean up printed first)");
  // --destroy only destroys: a flag it would ignore is refused, above all --dry-run, which promises that nothing happens.
  const ignored = values.destroy ? [["--dry-run", values["dry-run"]], ["--only", values.only], ["--record", values.record], ["--json", values.json]].filter(([, v]) => v !== undefined).map(([flag]) => flag) : [];
  if (ignored.length) throw new VerifyUsageError(`--destroy: not with ${ignored.join(", ")} (--destroy deploys and probes nothing, it destroys the probe stack of --probe-id); without --yes it says what it would destroy and destroys nothing`);
  if (values["aws-answers"] && values.target === VerifyTarget.Aws) throw new VerifyUsageError("--aws-answers: only with --target local (--target aws asks AWS itself)");
  const only = values.only?.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = only?.filter((id) => !PROBES.some((p) => p.id === id)) ?? [];
  if (unknown.length) throw new VerifyUsageError(`--only: no probe ${unknown.join(", ")}: the probes are ${PROBES.map((p) => p.id).join(", ")}`);
  return {
    target: values.target,
    yes: values.yes ?? false,
    dryRun: values["dry-run"] ?? false,
    app: values.app,
    probeId: values["probe-id"],
    destroy: values.destroy ?? false,
    probes: only ? PROBES.filter((p) => only.includes(p.id)) : PROBES,
    awsAnswers: values["aws-answers"],
    record: values.record,
    json: values.json ?? false,
  };
}

const usd = (v: number) => `$${v < 0.01 ? v.toFixed(6) : v.toFixed(4)}`;

function formatCost(cost: CostEstimate): string {
  return [
    `estimated cost of one run: ${usd(cost.totalUsd)} (about ${cost.minutes} minutes from deploy to teardown; us-east-1 list prices taken ${cost.pricesTakenOn})`,
    formatTable(cost.items.map((i) => [i.what, i.quantity.toLocaleString("en-US"), i.unit, usd(i.usd)]), ["item", "quantity", "unit", "cost"], ["left", "right", "left", "right"]).replace(/^/gm, "  "),
    ...cost.unpriced.map((u) => `  not priced: ${u}`),
  ].join("\n");
}

function readAnswerSet(file: string): AnswerSet {
  try {
    const set = JSON.parse(readFileSync(file, "utf8")) as AnswerSet;
    if (!Array.isArray(set.answers)) throw new Error("no answers array");
    return set;
  } catch (error) {
    throw new VerifyUsageError(`--aws-answers ${file}: not an answer set (${(error as Error).message}): write one with --target aws --record ${file}`);
  }
}

/** What a run on AWS says first: where its state is, and how to destroy the stack if the run stops before its teardown. */
function leftBehindHint(stack: ProbeStack): string {
  const state = stack.stateFile ? `its terraform state: ${stack.stateFile}; ` : "";
  return `${state}if this run stops before its teardown, destroy the probe stack with: ${stack.destroyCommand}`;
}

/** `--destroy`: terraform destroy of a probe stack an earlier run left behind, from its state. */
async function destroyLeftBehind(stack: ProbeStack, options: Options, io: VerifyIo): Promise<number> {
  if (!options.yes) {
    io.stderr(`verify: nothing was destroyed. This destroys the probe stack ${stack.config.stackName} (name prefix ${stack.config.namePrefix}, region ${stack.stack.region})${stack.stateFile ? ` from ${stack.stateFile}` : ""}: add --yes to run it.`);
    return 2;
  }
  const destroyed = await (io.targets?.destroy ?? terraformDestroy(io.env))(stack, (line) => io.stderr(line));
  io.stdout(`verify: destroyed the probe stack ${stack.config.stackName} (${destroyed} resources)${stack.stateFile ? ` and its state file ${stack.stateFile}` : ""}\n`);
  return 0;
}

export async function runVerifyCli(argv: readonly string[], io: VerifyIo): Promise<number> {
  let stack: ProbeStack | undefined;
  try {
    const options = parse(argv);
    if (options === "help") {
      io.stdout(HELP);
      return 0;
    }
    const recorded = options.awsAnswers ? readAnswerSet(options.awsAnswers) : undefined;
    stack = (io.probeStack ?? ((id?: string) => synthProbeStack(io.env, options.app, id)))(options.probeId);
    const probeStack = stack;
    if (options.destroy) return await destroyLeftBehind(stack, options, io);
    const probes = options.probes.filter((p) => p.appliesTo?.(probeStack) ?? true);
    const aws = options.target === VerifyTarget.Aws;
    const calls = plannedCalls(stack, probes, aws);
    const cost = aws ? estimateCost(stack, probes) : undefined;
    // With --json, stdout holds the one document; what the report prints before the run goes to stderr.
    const preamble = options.json ? (text: string) => io.stderr(text.replace(/\n$/, "")) : io.stdout;
    preamble(`verify --target ${options.target}: probe stack ${stack.config.stackName} (name prefix ${stack.config.namePrefix}, region ${stack.stack.region})\n`);
    if (cost && !options.json) io.stdout(`${formatCost(cost)}\n`);
    if (options.dryRun && options.json) {
      io.stdout(`${JSON.stringify(verifyJson({ target: options.target, stack, probes, cost, plannedCalls: calls, exitCode: 0 }), null, 2)}\n`);
      return 0;
    }
    if (options.dryRun) {
      io.stdout(`\n--dry-run: nothing is deployed or called. ${aws ? "AWS calls" : "Calls to the local cloud"}, in order:\n`);
      io.stdout(`${formatTable(calls.map((c) => [c.service, c.action, `×${c.count}`, c.resource, c.why]), ["service", "action", "count", "resource", "why"], ["left", "left", "right", "left", "left"]).replace(/^/gm, "  ")}\n`);
      return 0;
    }
    if (aws && !options.yes) {
      io.stderr(`verify: nothing was deployed. This deploys the probe stack ${stack.config.stackName}, probes it and destroys it (estimated ${usd(estimateCost(stack, probes).totalUsd)}): add --yes to run it, or --dry-run to list the calls.`);
      return 2;
    }
    if (aws) preamble(`${leftBehindHint(stack)}\n`);
    const runId = io.runId ?? newRunId();
    const note = (line: string) => io.stderr(line);
    const local = await withSession(() => (io.targets?.local ?? localTarget)(probeStack, note), (s) => runProbes(s, probeStack, probes, runId, note, undefined, io.signal));
    const awsAnswers = aws ? await withSession(() => (io.targets?.aws ?? terraformTarget(io.env))(probeStack, note), (s) => runProbes(s, probeStack, probes, runId, note, io.awsClock, io.signal)) : recorded;
    if (options.record) {
      mkdirSync(dirname(options.record), { recursive: true });
      writeFileSync(options.record, `${JSON.stringify(aws ? awsAnswers : local, null, 2)}\n`);
      note(`answers written to ${options.record}`);
    }
    const comparison = compareAnswers(awsAnswers, local);
    if (options.json) {
      const exitCode = exitCodeOf(comparison);
      const source = aws ? ({ source: "live" } as const) : recorded && options.awsAnswers ? ({ source: "recorded", file: options.awsAnswers, set: recorded } as const) : undefined;
      io.stdout(`${JSON.stringify(verifyJson({ target: options.target, stack, probes, cost, comparison, awsAnswers: source, exitCode }), null, 2)}\n`);
      return exitCode;
    }
    const awsLabel = aws || recorded ? "AWS" : undefined;
    if (recorded) io.stdout(`AWS's answers: recorded ${recorded.takenAt}${recorded.region ? ` in ${recorded.region}` : ""} (${options.awsAnswers})\n`);
    io.stdout(`${formatReport(comparison, probes, awsLabel)}\n`);
    return exitCodeOf(comparison);
  } catch (error) {
    const known = error instanceof VerifyError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION";
    io.stderr(known ? `verify: ${(error as Error).message}` : `verify failed: ${(error as Error).stack ?? String(error)}`);
    return 2;
  } finally {
    stack?.cleanup();
  }
}
