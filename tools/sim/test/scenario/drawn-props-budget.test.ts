// The small budget run under drawn props: the settings space itself is checked in settings-space.test.ts.
import fc from "fast-check";
import { fuzz } from "../../src/fuzz/search";
import { scenarioArbitrary } from "../../src/scenario/generator";
import { runScenario } from "../../src/run";
import { settingsFor } from "../../src/settings";
import { caseArbitrary, SettingsMode } from "../../src/scenario/settings-space";

describe("A small budget under drawn props", () => {
  it("a scenario under drawn props replays byte for byte", async () => {
    const [c] = fc.sample(caseArbitrary(SettingsMode.Random, scenarioArbitrary()), { numRuns: 1, seed: 31 });
    // Under jest the first run of this case in the process may draw its retry jitter differently (a first use the
    // warm-up does not reach consumes a random draw; under tsx, where `npm run sim:search` replays, it does not happen):
    // the runs compared come after it.
    await runScenario(settingsFor(c.settings), c.scenario);
    const first = await runScenario(settingsFor(c.settings), c.scenario);
    const second = await runScenario(settingsFor(c.settings), c.scenario);
    expect(second.trace).toEqual(first.trace);
  });

  it("30 scenarios, each under its own accepted props, keep every promise of the reference model", async () => {
    const report = await fuzz({ runs: 30, seed: 20261230, maxOps: 12, settingsMode: SettingsMode.Random });
    if (report.failure) {
      throw new Error(`${report.failure.violations.map((v) => v.what).join("\n")}\nprops ${JSON.stringify(report.failure.settings)}\nreplay: npm run sim:search -- --seed ${report.seed} --max-ops 12 --settings random --path ${report.failure.path} --runs 1 --trace`);
    }
    expect(report.totals.settingsDrawn).toBe(30);
  }, 120_000);
});
