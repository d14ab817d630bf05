import { readFileSync } from "node:fs";
import { PlanInputError } from "../errors";
import { isPlanJson, type PlanJson } from "../plan-json";
import { buildReview } from "./build";
import { ActionBasis, type PlanReview, type ResourceFacts } from "./types";

/** What `--against` points at: a saved `terraform show -json` plan, or a review JSON written by this tool. */
export type Baseline =
  | { readonly kind: "plan"; readonly label: string; readonly plan: PlanJson }
  | { readonly kind: "review"; readonly label: string; readonly review: PlanReview };

function isPlanReview(value: unknown): value is PlanReview {
  return typeof value === "object" && value !== null && (value as PlanReview).kind === "plan-review" && Array.isArray((value as PlanReview).resources);
}

export function parseBaseline(text: string, label: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PlanInputError(`--against ${label}: not JSON (${(error as Error).message}); pass a saved 'terraform show -json' output or a review.json`, { cause: error });
  }
  if (isPlanReview(value)) {
    if (value.version !== 1) throw new PlanInputError(`--against ${label}: review version ${String(value.version)} is not supported (expected 1); regenerate it with this version`);
    return { kind: "review", label, review: value };
  }
  if (isPlanJson(value)) return { kind: "plan", label, plan: value };
  throw new PlanInputError(
    `--against ${label}: neither a plan (no format_version/resource_changes) nor a review (kind "plan-review"); save one with 'terraform show -json <planfile> > plan.json' or use a previous review.json`,
  );
}

export function loadBaseline(path: string): Baseline {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new PlanInputError(`--against ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  return parseBaseline(text, path);
}

/** The resources of the baseline configuration, as the review shows them. */
export function baselineResources(baseline: Baseline): readonly ResourceFacts[] {
  return baseline.kind === "review" ? baseline.review.resources : buildReview(baseline.plan, { basis: ActionBasis.SavedPlan }).resources;
}
