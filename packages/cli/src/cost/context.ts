import type { Assumptions } from "./assumptions";
import type { Path } from "./paths";
import type { PriceBook } from "./prices";
import { deliveriesByPath, totalDeliveries, validateScenario, type Scenario } from "./scenario";
import type { DeployedConfig } from "./types";

/** Everything a cost computation reads, with the deliveries per path worked out once. */
export interface CostContext {
  readonly config: DeployedConfig;
  readonly book: PriceBook;
  readonly a: Assumptions;
  readonly scenario: Scenario;
  readonly deliveries: Record<Path, number>;
  readonly totalDeliveries: number;
  /** Bytes of one record as the pipe and the receive call carry it. */
  readonly recordBytes: number;
}

export function costContext(config: DeployedConfig, book: PriceBook, a: Assumptions, scenario: Scenario): CostContext {
  validateScenario(scenario);
  const deliveries = deliveriesByPath(scenario);
  return {
    config,
    book,
    a,
    scenario,
    deliveries,
    totalDeliveries: totalDeliveries(deliveries),
    recordBytes: a.messageBodyBytes + a.recordOverheadBytes,
  };
}
