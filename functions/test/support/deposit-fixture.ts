import type { PipelineHandler } from "../../src";
import type { Dynalite } from "@effectively-once/testing";
import { type DepositResult, depositEnv } from "./deposit";
import { loadHandler } from "./load-handler";
import { startDepositDynalite } from "./tables";

export interface DepositFixture {
  readonly db: Dynalite;
  readonly handler: PipelineHandler<DepositResult>;
}

/**
 * Registers the suite's beforeAll/afterAll: dynalite with the deposit function's idempotency and effects tables,
 * and the handler module loaded with its environment (plus `env`). Read the fields inside tests, not at collection.
 */
export function depositHandlerFixture(tables: { readonly idempotency: string; readonly effects: string }, env: Record<string, string> = {}): DepositFixture {
  const fixture = {} as { db: Dynalite; handler: PipelineHandler<DepositResult>; restore?: () => void };
  beforeAll(async () => {
    fixture.db = await startDepositDynalite(tables);
    ({ handler: fixture.handler, restore: fixture.restore } = loadHandler({ ...depositEnv(fixture.db.endpoint, tables), ...env }));
  });
  afterAll(async () => {
    fixture.restore?.();
    await fixture.db?.stop();
  });
  return fixture;
}
