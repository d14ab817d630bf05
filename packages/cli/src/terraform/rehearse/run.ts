import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import type { StackConfig } from "@effectively-once/pipeline";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";
import { readStack, resourceList } from "@effectively-once/local-cloud/terraform-json";
import { withoutAwsIdentity } from "../credentials";
import { TerraformNotAvailableError } from "../errors";
import { findProviderMirror, findTerraform, offlineTerraformEnv, writeOfflineCliConfig } from "../offline";
import type { Log } from "../progress";
import { readRequiredProviders, type ProviderRequirement } from "../required-providers";
import { compareActions, planDrift, type ChangeCheck, type Drift } from "./drift";
import { RehearsalNotRunError } from "./errors";
import type { CallLog } from "./call-log";
import { startFront } from "./front";
import { definitionCheck } from "./definition-check";
import type { Break } from "./breaks";
import { GapFix, MOTO_GAPS, type MotoGap } from "./gaps";
import { leftovers } from "./leftovers";
import { findMotoServer, startMoto } from "./moto";
import { writeRehearsalOverride } from "./override";
import { predictChange } from "./predict";
import { applyPlan, destroy, init, planToFile, replan, stateAddresses } from "./steps";
import { Outcome, resourceResults, type ResourceResult } from "./table";
import { terraformIn } from "./tf";

/** The default stack's visibility timeout, from which the change rehearsal moves it one minute up. */
const DEFAULT_VISIBILITY_SECONDS = DEFAULTS.visibilityTimeoutFactor * DEFAULTS.executionTimeoutSeconds;

/** An in-place change AWS makes without replacing anything: the function's memory and the queue's visibility timeout. */
const CHANGE: PipelineOverrides = { visibilityTimeoutSeconds: DEFAULT_VISIBILITY_SECONDS + 60, function: { memoryMb: DEFAULTS.functionMemoryMb * 2 } };

/** The change in words, for the report. */
export const CHANGE_TEXT = `function memory ${DEFAULTS.functionMemoryMb} → ${DEFAULTS.functionMemoryMb * 2} MB, visibility timeout ${DEFAULT_VISIBILITY_SECONDS} → ${DEFAULT_VISIBILITY_SECONDS + 60} s`;

export interface RehearsalOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly log: Log;
  /** Also rehearse CHANGE (default true). */
  readonly change?: boolean;
  /** A break test: a deliberate fault merged into the override (the change rehearsal is then skipped). */
  readonly breakTest?: Break;
  /** Records every call the provider makes, by step (`--record-calls`). */
  readonly callLog?: CallLog;
}

export interface RehearsalReport {
  readonly gaps: readonly { gap: MotoGap; confirmed: boolean }[];
  readonly resources: readonly ResourceResult[];
  /** The second plan ran (it does not after a failed apply). */
  readonly replanned: boolean;
  readonly drift: readonly Drift[];
  readonly change?: { readonly checks: readonly ChangeCheck[]; readonly drift: readonly Drift[]; readonly applied: boolean };
  readonly teardown: { readonly protectionOff: boolean; readonly destroyed: boolean; readonly left: readonly string[] };
  readonly frontAnswered: Readonly<Record<string, number>>;
  readonly refusedDefinitions: readonly string[];
  readonly timings: Readonly<Record<string, number>>;
  readonly failures: readonly string[];
}

/** The providers the stack's synthesized `required_providers` asks for (a throwaway synth, ~1 s). */
function stackProviders(config: StackConfig): ProviderRequirement[] {
  const dir = mkdtempSync(join(tmpdir(), "rehearse-providers-"));
  try {
    return readRequiredProviders(synthStack(config, { outdir: dir }).stackDir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Preflight: what is missing, as one message naming what to install or set. */
function preflight(env: NodeJS.ProcessEnv, providers: readonly ProviderRequirement[]): { terraform: string; mirror: string; moto: string } {
  const terraform = findTerraform(env);
  if (!terraform) throw new RehearsalNotRunError("no terraform CLI on PATH: install Terraform >= 1.5 or set TERRAFORM_BIN");
  const moto = findMotoServer(env);
  if (!moto) throw new RehearsalNotRunError("no moto_server on PATH: pip install 'moto[server]==5.2.1' or set MOTO_SERVER_BIN");
  try {
    return { terraform, mirror: findProviderMirror(providers, env), moto };
  } catch (error) {
    if (error instanceof TerraformNotAvailableError) throw new RehearsalNotRunError(error.message, { cause: error });
    throw error;
  }
}

export async function rehearse(options: RehearsalOptions): Promise<RehearsalReport> {
  const { env, log } = options;
  const config = stackConfigOf(env);
  const tools = preflight(env, stackProviders(config));
  const work = mkdtempSync(join(tmpdir(), "rehearse-"));
  const timings: Record<string, number> = {};
  const failures: string[] = [];
  const time = async <T>(step: string, run: () => Promise<T>): Promise<T> => {
    if (options.callLog) options.callLog.phase = step;
    const started = performance.now();
    try {
      return await run();
    } finally {
      timings[step] = (timings[step] ?? 0) + performance.now() - started;
    }
  };
  const moto = await startMoto(tools.moto);
  log(`rehearse: moto_server on ${moto.endpoint} (pid ${moto.pid})`);
  const front = await startFront(moto.endpoint, await definitionCheck(), options.callLog && ((req) => options.callLog!.see(req)));
  try {
    const probeId = randomBytes(4).toString("hex");
    const gaps = await time("probes", async () => {
      const out: { gap: MotoGap; confirmed: boolean }[] = [];
      for (const gap of MOTO_GAPS) out.push({ gap, confirmed: await gap.probe(moto.endpoint, probeId) });
      return out;
    });
    for (const { gap, confirmed } of gaps) {
      if (!confirmed) failures.push(`moto no longer shows gap ${gap.id} (${gap.why}): remove its workaround from packages/cli/src/terraform/rehearse/gaps.ts`);
    }
    const applied = gaps.filter((g) => g.confirmed).map((g) => g.gap);

    const outdir = join(work, "out");
    const empty = join(work, "empty-aws-config");
    writeFileSync(empty, "");
    const tfEnv = { ...offlineTerraformEnv(writeOfflineCliConfig(work, tools.mirror), withoutAwsIdentity(env, empty)), TF_DATA_DIR: join(work, ".terraform") };
    const synth = async (overrides: PipelineOverrides, withBreak = true) => {
      const result = await time("synth", async () => synthStack(config, { outdir, overrides }));
      const resources = resourceList(readStack(result.stackFile));
      const extra = withBreak ? options.breakTest?.fragment(resources) : undefined;
      writeRehearsalOverride(result.stackDir, { endpoint: front.endpoint, statePath: join(work, "terraform.tfstate"), resources, gaps: applied, extra });
      const tf = terraformIn(tools.terraform, result.stackDir, tfEnv, log);
      await time("init", () => init(tf));
      return { tf, resources };
    };

    // 1. Apply the stack as main.ts synthesizes it.
    const base: PipelineOverrides = {};
    let { tf, resources } = await synth(base);
    const first = await time("plan", () => planToFile(tf, work, "base"));
    const apply = await time("apply", () => applyPlan(tf, first.file));
    if (!apply.ok) failures.push("terraform apply of the stack failed (see the table)");
    const planned = (first.plan.resource_changes ?? []).filter((rc) => rc.mode === "managed").map((rc) => rc.address);
    const skipped = new Map<string, string>();
    for (const gap of applied.filter((g) => g.fix === GapFix.SkipResource)) {
      for (const r of resources.filter((x) => x.type === gap.resourceType)) skipped.set(`${r.type}.${r.name}`, `not rehearsed (${gap.why})`);
    }
    const inState = await stateAddresses(tf);
    const rows = resourceResults({ planned, inState, skipped, applyOutput: apply.output });
    for (const row of rows.filter((r) => r.outcome === Outcome.Failed)) failures.push(`${row.address} failed: ${row.note}`);
    const blocked = rows.filter((r) => r.outcome === Outcome.Blocked).length;
    if (blocked) failures.push(`${blocked} resource(s) not created because the apply stopped`);

    // 2. Plan again: a stack that settles has nothing to do.
    let drift: Drift[] = [];
    let change: RehearsalReport["change"];
    if (apply.ok) {
      drift = (await time("replan", () => replan(tf, work, "drift"))).drift;
      if (drift.length) failures.push(`the second plan is not empty: ${drift.length} resource(s) drift`);
      // 3. The change rehearsal: what npx effectively-once plan predicts, then what terraform does against the applied state.
      if (options.change !== false && !options.breakTest && !drift.length) {
        const predicted = await time("predict", () => predictChange(env, base, { ...base, ...CHANGE }, log));
        ({ tf, resources } = await synth({ ...base, ...CHANGE }));
        const changePlan = await time("change plan", () => planToFile(tf, work, "change"));
        const checks = compareActions(predicted, planDrift(changePlan.plan));
        for (const c of checks.filter((x) => x.predicted !== x.actual)) failures.push(`change rehearsal: ${c.address} was predicted ${c.predicted}, terraform does ${c.actual}`);
        const changeApply = await time("change apply", () => applyPlan(tf, changePlan.file));
        if (!changeApply.ok) failures.push(`applying the change failed: ${changeApply.output.trim().split("\n").slice(-6).join(" ")}`);
        const after = changeApply.ok ? (await time("replan", () => replan(tf, work, "change-drift"))).drift : [];
        if (after.length) failures.push(`the plan after the change is not empty: ${after.length} resource(s) drift`);
        change = { checks, drift: after, applied: changeApply.ok };
      }
    }

    // 4. Teardown as a user runs it: deletion protection off, apply, destroy.
    const last = change?.applied ? { ...base, ...CHANGE } : base;
    // A break test's fault stays out of the teardown: what was created must still go.
    ({ tf } = await synth({ ...last, deletionProtection: false }, false));
    const off = await time("teardown apply", async () => applyPlan(tf, (await planToFile(tf, work, "unprotect")).file));
    if (!off.ok) failures.push(`turning deletion protection off failed: ${off.output.trim().split("\n").slice(-6).join(" ")}`);
    const gone = await time("destroy", () => destroy(tf));
    if (!gone.ok) failures.push(`terraform destroy failed: ${gone.output.trim().split("\n").slice(-6).join(" ")}`);
    const left = await leftovers(moto.endpoint);
    if (left.length) failures.push(`moto still holds after the destroy: ${left.join(", ")}`);
    return {
      gaps,
      resources: rows,
      replanned: apply.ok,
      drift,
      change,
      teardown: { protectionOff: off.ok, destroyed: gone.ok, left },
      frontAnswered: { ...front.answered },
      refusedDefinitions: [...front.refused],
      timings,
      failures,
    };
  } finally {
    await front.close();
    await moto.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
