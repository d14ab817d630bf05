import { fuzz } from "../../src/fuzz/search";
import { fuzzReportText } from "../../src/fuzz/cli";

describe("Function: fuzz", () => {
  it("reports a run that throws as a failure naming the error, not as a violation without a reason", async () => {
    // The simulation's settings cannot be built: every run throws before it starts (as a mutant whose state the drawn
    // definition lacks does, mid-run).
    const report = await fuzz({ runs: 3, seed: 1, settingsOf: () => { throw new Error("no state Decide in this definition"); } });
    expect(report.failure?.violations).toEqual([{ what: "the run broke: no state Decide in this definition" }]);
    expect(fuzzReportText(report)).toContain("  - the run broke: no state Decide in this definition");
  });
});
