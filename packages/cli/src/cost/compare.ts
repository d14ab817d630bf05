import type { Assumptions } from "./assumptions";
import { baselineCost } from "./baseline-cost";
import { costContext } from "./context";
import { designCost, type DesignCost } from "./design-cost";
import type { PriceBook } from "./prices";
import type { Scenario } from "./scenario";
import type { DeployedConfig } from "./types";

export interface Comparison {
  readonly scenario: Scenario;
  readonly design: DesignCost;
  readonly baseline: DesignCost;
  /** Baseline total minus this design's total (positive = this design is cheaper). */
  readonly savingsUsd: number;
  /** Savings as a share of the baseline total. */
  readonly savingsShare: number;
}

export function compare(config: DeployedConfig, book: PriceBook, a: Assumptions, scenario: Scenario): Comparison {
  const ctx = costContext(config, book, a, scenario);
  const design = designCost(ctx);
  const baseline = baselineCost(ctx);
  const savingsUsd = baseline.totalUsd - design.totalUsd;
  return { scenario, design, baseline, savingsUsd, savingsShare: baseline.totalUsd > 0 ? savingsUsd / baseline.totalUsd : 0 };
}

export interface GridPoint {
  readonly duplicateRatio: number;
  readonly batchSize: number;
  readonly designUsd: number;
  readonly baselineUsd: number;
}

/** Totals for every duplicate ratio × batch size (the chart's data). */
export function grid(config: DeployedConfig, book: PriceBook, a: Assumptions, base: Scenario, duplicateRatios: readonly number[], batchSizes: readonly number[]): GridPoint[] {
  const points: GridPoint[] = [];
  for (const duplicateRatio of duplicateRatios) {
    for (const batchSize of batchSizes) {
      const c = compare(config, book, a, { ...base, duplicateRatio, batchSize });
      points.push({ duplicateRatio, batchSize, designUsd: c.design.totalUsd, baselineUsd: c.baseline.totalUsd });
    }
  }
  return points;
}
