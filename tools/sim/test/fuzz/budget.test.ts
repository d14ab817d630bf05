import { fuzz } from "../../src/fuzz/search";

/**
 * The fixed-seed budget of the search in `npm test`: 150 hostile scenarios through the whole pipeline under the
 * virtual clock (the long search is `npm run sim:search`), drawn from the whole generator: special texts in every text
 * position and the producer's message attributes included. Nothing is set aside: findings are fixed in the pipeline
 * (.changeset/findings-of-the-searches.md).
 */
describe("Simulation budget", () => {
  it("150 generated scenarios keep every promise of the reference model", async () => {
    const report = await fuzz({ runs: 150, seed: 20261201, maxOps: 16 });
    if (report.failure) {
      throw new Error(`${report.failure.violations.map((v) => v.what).join("\n")}\nreplay: npm run sim:search -- --seed ${report.seed} --path ${report.failure.path} --runs 1 --trace`);
    }
    expect(report.totals.runs).toBe(150);
    expect(report.totals.charges).toBeGreaterThan(50);
    expect(report.totals.faultsFired).toBeGreaterThan(20);
    // ~6 s on an idle 2-core machine; the limit leaves room for a loaded one.
  }, 150_000);
});
