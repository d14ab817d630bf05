import { fuzz } from "../../src/fuzz/search";
import { DomainMode } from "../../src/domain/space";
import { SettingsMode } from "../../src/scenario/settings-space";

/**
 * A small fixed budget of drawn domains (domain/space.ts), each scenario under its own drawn props: the reference
 * model judges any app's promise, not one example's. The payments budget (budget.test.ts) keeps its own seeds.
 */
describe("Simulation budget under drawn domains", () => {
  it("30 scenarios of drawn domains keep every promise of the reference model", async () => {
    const report = await fuzz({ runs: 30, seed: 20261241, maxOps: 16, domainMode: DomainMode.Random, settingsMode: SettingsMode.Random });
    if (report.failure) {
      throw new Error(`${report.failure.violations.map((v) => v.what).join("\n")}\nreplay: npm run sim:search -- --seed ${report.seed} --max-ops 16 --settings random --domain random --path ${report.failure.path} --runs 1 --trace`);
    }
    expect(report.totals.runs).toBe(30);
    expect(report.totals.domainsDrawn).toBe(30);
    expect(report.totals.charges).toBeGreaterThan(5);
    expect(report.totals.fates.filtered ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
