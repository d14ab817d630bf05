import { oracleConfig } from "../src/fuzz/search";
import { violations } from "../src/oracle/model";
import { runScenario } from "../src/run";
import type { Scenario } from "../src/scenario/shape";
import { settingsFor } from "../src/settings";

/**
 * When a run ends: only once the pipe has finished what it received. A purge (allowed by the stack) can empty the
 * source queue while the pipe still collects its batch; a run that stopped then aborted the execution the pipe went on
 * to start, a false "execution ended FAILED" (found by `npm run sim:search -- --seed 20261333`, on main too).
 */
const PURGED_WHILE_COLLECTING: Scenario = {
  seed: 0,
  pollers: 1,
  ops: [{ op: "send", body: JSON.stringify({ orderId: "a", amount: 10, currency: "EUR", tenantId: "a" }) }, { op: "release", message: 0 }, { op: "purge", queue: "source" }, { op: "redrive" }],
  faults: [],
};

describe("Simulation: the end of a run", () => {
  it("waits for a batch the pipe is still collecting when a purge empties the queue (no aborted execution)", async () => {
    const settings = settingsFor({ allowQueuePurge: true });
    const obs = await runScenario(settings, PURGED_WHILE_COLLECTING);
    expect(obs.trace.join("\n")).toMatch(/purge source took #0/);
    expect(obs.executions.map((e) => [e.status, e.answered])).toEqual([["SUCCEEDED", true]]);
    expect(violations(PURGED_WHILE_COLLECTING, obs, oracleConfig(settings)).map((v) => v.what)).toEqual([]);
  });
});
