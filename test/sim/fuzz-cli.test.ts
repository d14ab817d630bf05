import { FuzzUsageError, parseFuzzArgs, replayCommand } from "../../local/sim/fuzz-cli";
import { emptyTotals, type FuzzReport } from "../../local/sim/fuzz";

describe("Function: parseFuzzArgs", () => {
  it("reads runs, seed, path, max-ops and hunt", () => {
    expect(parseFuzzArgs(["--runs", "50", "--seed", "7", "--path", "3:0:1", "--max-ops", "5", "--hunt", "precision-collision"])).toEqual({
      runs: 50,
      seed: 7,
      path: "3:0:1",
      maxOps: 5,
      hunt: "precision-collision",
      skip: [],
      json: false,
      trace: false,
      help: false,
    });
  });

  it.each([
    [["--runs", "0"], "--runs needs an integer >= 1"],
    [["--runs"], "--runs needs an integer >= 1, got nothing"],
    [["--path", "3:0"], "--path replays a counterexample of one seed: pass --seed too"],
    [["--seed", "1", "--path", "x"], "--path needs a fast-check path"],
    [["--hunt", "nope"], "--hunt needs one of separator-collision"],
    [["--bogus"], 'unknown argument "--bogus"'],
  ])("refuses %j, naming the flag and the fix", (argv, message) => {
    expect(() => parseFuzzArgs(argv)).toThrow(FuzzUsageError);
    expect(() => parseFuzzArgs(argv)).toThrow(message);
  });
});

describe("Function: replayCommand", () => {
  it("replays the failing seed and path with one run", () => {
    const report = { seed: 9, totals: emptyTotals(), elapsedMs: 1, skipped: {}, failure: { scenario: { seed: 0, pollers: 1, faults: [], ops: [] }, violations: [], classes: [], path: "4:1", numRuns: 5, shrinks: 1 } } as FuzzReport;
    expect(replayCommand(report)).toBe("npm run fuzz -- --seed 9 --path 4:1 --runs 1");
  });
});
