import { HoleClass } from "../../local/sim/classify";
import { fuzz } from "../../local/sim/fuzz";
import { DomainMode } from "../../local/sim/domain-space";
import { SettingsMode } from "../../local/sim/settings-space";

/**
 * A small fixed budget of drawn domains (domain-space.ts), each scenario under its own drawn props: the reference
 * model judges any app's promise, not one example's. The payments budget (budget.test.ts) keeps its own seeds. Set
 * aside: the local pipe's filter on a body thousands of levels deep (docs/simulation.md, "Domains"), a finding of
 * the local pipe, not of the pipeline.
 */
describe("Simulation budget under drawn domains", () => {
  it("30 scenarios of drawn domains keep every promise of the reference model", async () => {
    const report = await fuzz({ runs: 30, seed: 20261242, maxOps: 16, domainMode: DomainMode.Random, settingsMode: SettingsMode.Random, skip: [HoleClass.PipeFilterDepth] });
    if (report.failure) {
      throw new Error(`${report.failure.violations.map((v) => v.what).join("\n")}\nreplay: npm run fuzz -- --seed ${report.seed} --max-ops 16 --settings random --domain random --skip pipe-filter-depth --path ${report.failure.path} --runs 1 --trace`);
    }
    expect(report.totals.runs).toBe(30);
    expect(report.totals.domainsDrawn).toBe(30);
    expect(report.totals.charges).toBeGreaterThan(5);
    expect(report.totals.fates.filtered ?? 0).toBeGreaterThan(0);
  }, 60_000);
});
