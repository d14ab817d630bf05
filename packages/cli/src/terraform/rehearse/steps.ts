import { join } from "node:path";
import { TerraformCommandError } from "../errors";
import { isPlanJson, type PlanJson } from "../plan-json";
import { planDrift, type Drift } from "./drift";
import type { Tf } from "./tf";

const COMMON = ["-input=false", "-no-color"];

async function showPlan(tf: Tf, file: string): Promise<PlanJson> {
  const { stdout } = await tf.ok(["show", "-json", "-no-color", file]);
  const plan = JSON.parse(stdout) as unknown;
  if (!isPlanJson(plan)) throw new Error(`terraform show -json ${file} printed something that is not a plan`);
  return plan;
}

export async function init(tf: Tf): Promise<void> {
  await tf.ok(["init", ...COMMON]);
}

/** `plan -out` + `show -json`: the plan terraform will apply. */
export async function planToFile(tf: Tf, dir: string, name: string): Promise<{ file: string; plan: PlanJson }> {
  const file = join(dir, `${name}.tfplan`);
  await tf.ok(["plan", ...COMMON, `-out=${file}`]);
  return { file, plan: await showPlan(tf, file) };
}

/** Applies a saved plan; resolves with the exit code and everything terraform printed (errors are data here). */
export async function applyPlan(tf: Tf, file: string): Promise<{ ok: boolean; output: string; ms: number }> {
  const r = await tf.raw(["apply", ...COMMON, "-auto-approve", file]);
  return { ok: r.code === 0, output: `${r.stdout}\n${r.stderr}`, ms: r.ms };
}

/** Managed resource addresses in the state. */
export async function stateAddresses(tf: Tf): Promise<Set<string>> {
  const { stdout } = await tf.ok(["show", "-json", "-no-color"]);
  const state = JSON.parse(stdout) as { values?: { root_module?: { resources?: { address: string; mode: string }[] } } };
  return new Set((state.values?.root_module?.resources ?? []).filter((r) => r.mode === "managed").map((r) => r.address));
}

/** `plan -detailed-exitcode` (0 = nothing to do, 2 = changes); with changes, what they are. */
export async function replan(tf: Tf, dir: string, name: string): Promise<{ drift: Drift[]; ms: number }> {
  const file = join(dir, `${name}.tfplan`);
  const args = ["plan", ...COMMON, "-detailed-exitcode", `-out=${file}`];
  const r = await tf.raw(args);
  if (r.code === 0) return { drift: [], ms: r.ms };
  if (r.code !== 2) throw new TerraformCommandError(args, r.code, `${r.stderr}\n${r.stdout}`);
  return { drift: planDrift(await showPlan(tf, file)), ms: r.ms };
}

export async function destroy(tf: Tf): Promise<{ ok: boolean; output: string; ms: number }> {
  const r = await tf.raw(["destroy", ...COMMON, "-auto-approve"]);
  return { ok: r.code === 0, output: `${r.stdout}\n${r.stderr}`, ms: r.ms };
}
