import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { StackConfig } from "@effectively-once/pipeline";
import type { PipelineApp, PipelineOverrides } from "@effectively-once/pipeline";
import { appOf, loadApp } from "@effectively-once/local-cloud/stack";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { PlanInputError } from "./errors";
import { findProviderMirror, requireTerraform } from "./offline";
import { readRequiredProviders } from "./required-providers";
import type { PlanJson } from "./plan-json";
import { planStack } from "./plan-stack";
import { timed, type Log } from "./progress";
import { baselineResources, type Baseline } from "./review/baseline";
import { buildReview } from "./review/build";
import { renderMarkdown } from "./review/markdown";
import { ActionBasis, ReviewMode, type PlanReview } from "./review/types";
import { seedStateFromPlan } from "./seed-state";
import { stacksIn, synthProject, type CdktfProject } from "../project/cdktf-project";
import { UsageError } from "../project/errors";
import { providerConfig, readStack } from "@effectively-once/local-cloud/terraform-json";

export interface PlanReviewRequest {
  readonly mode: ReviewMode;
  /** Synth output directory (cdktf.out). */
  readonly outdir: string;
  /** Where review.md, review.json and plan.json are written. */
  readonly reportDir: string;
  /** Environment of this configuration (PIPELINE_* and the terraform/mirror variables). */
  readonly env: NodeJS.ProcessEnv;
  /** Compare with a saved plan or review. */
  readonly against?: Baseline;
  /** Compare with another configuration, planned offline in the same run (e.g. from `--base-env`). */
  readonly baseEnv?: NodeJS.ProcessEnv;
  /** Construct overrides (programmatic use and tests); the CLI plans exactly what main.ts deploys. */
  readonly overrides?: { readonly head?: PipelineOverrides; readonly base?: PipelineOverrides };
  /**
   * The team's project (cdktf.json): each configuration is synthesized by its own command (`app`) with that
   * configuration's environment; absent, by the app PIPELINE_APP names, in this process.
   */
  readonly project?: CdktfProject;
  /** The stack to review when the project's synth writes several (`--stack`). */
  readonly stack?: string;
  readonly log: Log;
}

export interface PlanReviewResult {
  readonly review: PlanReview;
  readonly markdown: string;
  readonly plan: PlanJson;
  readonly basePlan?: PlanJson;
  readonly files: { readonly markdown: string; readonly json: string; readonly plan: string; readonly basePlan?: string };
}

const OFFLINE_NOTES = [
  "Offline: AWS was never called. The plan cannot show drift (changes made outside Terraform to the resources in its state) or values AWS assigns (ARNs, URLs, ids): run `npx effectively-once plan --online` with credentials for those. No plan, online or offline, shows names that already exist outside the state, quotas, or the deploying identity's missing rights (an online plan reads only what its state holds): run `npx effectively-once preflight` for those.",
];

function configLabel(config: StackConfig): string {
  return `stack ${config.stackName}, region ${config.region}, prefix ${config.namePrefix}`;
}

/** One configuration, synthesized: its stack folder and what the review says of it. */
interface Synthesized {
  readonly stackDir: string;
  readonly stackName: string;
  readonly region: string;
  readonly label: string;
}

/** The app and stack config one configuration's environment names: PIPELINE_APP as well as the stack's variables. */
function configurationOf(env: NodeJS.ProcessEnv): { app: PipelineApp; appName: string; config: StackConfig } {
  const appName = appOf(env);
  const app = loadApp(appName);
  return { app, appName, config: stackConfigOf(env, app) };
}

/** In this process, from the app PIPELINE_APP names (this repository's examples, programmatic use). */
async function synthApp(env: NodeJS.ProcessEnv, outdir: string, overrides: PipelineOverrides | undefined, log: Log, label: string): Promise<Synthesized> {
  const { app, appName, config } = configurationOf(env);
  const { stackDir } = await timed(log, `${label}synth ${config.stackName} (app ${appName}, ${config.region}, prefix '${config.namePrefix}')`, () => synthStack(config, { app, outdir, overrides }));
  return { stackDir, stackName: config.stackName, region: config.region, label: `app ${appName}, ${configLabel(config)}` };
}

/** With the team's own synth command and this configuration's environment (an env file's variables among them). */
async function synthWithProject(project: CdktfProject, wanted: string | undefined, env: NodeJS.ProcessEnv, outdir: string, log: Log, label: string): Promise<Synthesized> {
  await timed(log, `${label}synth (${project.app})`, async () => synthProject(project, env, outdir, log));
  const stacks = stacksIn(outdir);
  const stackName = wanted ?? (stacks.length === 1 ? stacks[0] : undefined);
  if (stackName === undefined) throw new UsageError(`${join(outdir, "stacks")} holds ${stacks.length === 0 ? "no stack" : `${stacks.length} stacks (${stacks.join(", ")}): pass --stack <name>`}`);
  if (!stacks.includes(stackName)) throw new UsageError(`--stack ${stackName}: the synth wrote no such stack; it wrote ${stacks.join(", ") || "none"}`);
  const stackDir = join(outdir, "stacks", stackName);
  const region = providerConfig(readStack(join(stackDir, "cdk.tf.json")), "aws")?.region;
  const literal = typeof region === "string" && !region.includes("${") ? region : (env.AWS_REGION ?? "us-east-1");
  return { stackDir, stackName, region: literal, label: `stack ${stackName}, region ${literal}` };
}

function synth(request: PlanReviewRequest, env: NodeJS.ProcessEnv, outdir: string, overrides: PipelineOverrides | undefined, label: string): Promise<Synthesized> {
  return request.project ? synthWithProject(request.project, request.stack, env, outdir, request.log, label) : synthApp(env, outdir, overrides, request.log, label);
}

/** Synthesizes, plans and reviews; writes the report files. Throws TerraformToolError subclasses with one-line messages. */
export async function runPlanReview(request: PlanReviewRequest): Promise<PlanReviewResult> {
  const { mode, log, env } = request;
  if (request.against && request.baseEnv) throw new PlanInputError("use either --against FILE or --base-env FILE, not both");
  // Preflight before the synth: a missing CLI is reported first. The mirror is looked up after each synth, for the
  // providers that stack's required_providers names (a CDK Terrain build may need another hashicorp/aws).
  const terraform = requireTerraform(env);
  const mirrorFor = (stackDir: string) => findProviderMirror(readRequiredProviders(stackDir), env);
  const reportDir = resolve(request.reportDir);

  let baselinePlan: PlanJson | undefined;
  let basePlan: PlanJson | undefined;
  let baseline: { label: string; resources: PlanReview["resources"] } | undefined;
  const notes: string[] = [];
  if (request.baseEnv) {
    const baseOut = mkdtempSync(join(tmpdir(), "plan-review-base-"));
    let base: Synthesized;
    try {
      base = await synth(request, request.baseEnv, baseOut, request.overrides?.base, "base: ");
      const result = await planStack({ stackDir: base.stackDir, mode: ReviewMode.Offline, terraform, mirror: mirrorFor(base.stackDir), env: request.baseEnv, log, label: "base" });
      basePlan = result.plan;
    } finally {
      rmSync(baseOut, { recursive: true, force: true });
    }
    baselinePlan = basePlan;
    const label = `base configuration (${base.label})`;
    baseline = { label, resources: buildReview(basePlan, { basis: ActionBasis.EmptyState }).resources };
  } else if (request.against) {
    baseline = { label: request.against.label, resources: baselineResources(request.against) };
    if (request.against.kind === "plan") baselinePlan = request.against.plan;
    else if (mode === ReviewMode.Offline) {
      notes.push("The baseline is a review JSON, so Terraform could not plan against it: updates and replacements against it are inferred from settings AWS cannot change in place. Pass the baseline's plan.json for Terraform's own verdict.");
    }
  }

  // Synthesized last, right before its plan: the base plan above takes seconds.
  const head = await synth(request, env, request.outdir, request.overrides?.head, request.baseEnv ? "head: " : "");
  const seed = mode === ReviewMode.Offline && baselinePlan ? seedStateFromPlan(baselinePlan, { region: head.region }) : undefined;
  if (seed && seed.unresolved.length > 0) {
    notes.push(`Baseline values that could not be reconstructed (left empty, may show as spurious updates): ${seed.unresolved.map((u) => `\`${u}\``).join(", ")}.`);
  }
  const mirror = mode === ReviewMode.Offline ? mirrorFor(head.stackDir) : undefined;
  const result = await planStack({ stackDir: head.stackDir, mode, terraform, mirror, seed: seed?.state, env, log, label: request.baseEnv ? "head" : undefined });
  if (result.definitionsValidated > 0) {
    notes.push("State machine definitions were checked locally (asl-validator) in place of AWS's ValidateStateMachineDefinition, which the provider calls while planning.");
  }
  const basis = mode === ReviewMode.Online ? ActionBasis.RealState : seed ? ActionBasis.SeededState : ActionBasis.EmptyState;
  const review = buildReview(result.plan, {
    stack: head.stackName,
    mode,
    basis,
    baseline,
    notes: [...(mode === ReviewMode.Offline ? OFFLINE_NOTES : []), ...notes],
  });
  const markdown = renderMarkdown(review);

  mkdirSync(reportDir, { recursive: true });
  const files = {
    markdown: join(reportDir, "review.md"),
    json: join(reportDir, "review.json"),
    plan: join(reportDir, "plan.json"),
    ...(basePlan ? { basePlan: join(reportDir, "base-plan.json") } : {}),
  };
  writeFileSync(files.markdown, markdown);
  writeFileSync(files.json, `${JSON.stringify(review, null, 2)}\n`);
  writeFileSync(files.plan, JSON.stringify(result.plan));
  if (files.basePlan && basePlan) writeFileSync(files.basePlan, JSON.stringify(basePlan));
  return { review, markdown, plan: result.plan, basePlan, files };
}
