import type { Assumptions } from "../cost/assumptions";
import { compare } from "../cost/compare";
import { fixedMonthlyCosts } from "../cost/fixed-costs";
import type { PriceBook } from "../cost/prices";
import type { DeployedConfig } from "../cost/types";
import type { TrafficMix } from "./figures";

/** Seconds in the month AWS bills (730 hours), as the cost model counts it. */
const SECONDS_PER_MONTH = 730 * 3600;

export interface MonthlyCost {
  readonly messagesPerMonth: number;
  readonly perMessageUsd: number;
  readonly fixedUsd: number;
  readonly totalUsd: number;
  readonly pricesTakenOn: string;
}

/** The cost model's own lines (packages/cli/src/cost/) at `rate` messages per second sustained for a month, plus its fixed costs. */
export function monthlyCostAt(rate: number, config: DeployedConfig, book: PriceBook, a: Assumptions, mix: TrafficMix): MonthlyCost {
  const messagesPerMonth = rate * SECONDS_PER_MONTH;
  const c = compare(config, book, a, {
    messages: messagesPerMonth,
    duplicateRatio: mix.duplicateRatio,
    quarantineRatio: mix.quarantineRatio,
    retryRatio: mix.retryRatio,
    batchSize: config.pipe.batchSize,
  });
  const fixedUsd = fixedMonthlyCosts(config, book, a).reduce((sum, f) => sum + f.usdPerMonth, 0);
  return { messagesPerMonth, perMessageUsd: c.design.totalUsd, fixedUsd, totalUsd: c.design.totalUsd + fixedUsd, pricesTakenOn: book.takenOn };
}
