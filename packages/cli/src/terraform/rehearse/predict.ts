import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PipelineOverrides } from "@effectively-once/pipeline";
import type { PlanAction } from "../plan-json";
import { runPlanReview } from "../plan-review";
import type { Log } from "../progress";
import { ReviewMode } from "../review/types";

/** What `npx effectively-once plan --base-env …` predicts for going from `base` to `head`: action per address. */
export async function predictChange(env: NodeJS.ProcessEnv, base: PipelineOverrides, head: PipelineOverrides, log: Log): Promise<Map<string, PlanAction>> {
  const dir = mkdtempSync(join(tmpdir(), "rehearse-predict-"));
  try {
    const { review } = await runPlanReview({
      mode: ReviewMode.Offline,
      outdir: join(dir, "out"),
      reportDir: join(dir, "report"),
      env,
      baseEnv: env,
      overrides: { base, head },
      log: (line) => log(`rehearse: predict: ${line}`),
    });
    return new Map(review.resources.map((r) => [r.address, r.action]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
