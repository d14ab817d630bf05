import { benchLine, FuzzUsageError, parseFuzzArgs, replayCommand } from "../../src/fuzz/cli";
import { emptyTotals, type FuzzReport } from "../../src/fuzz/search";

describe("Function: parseFuzzArgs", () => {
  it("reads runs, seed, path, max-ops and hunt", () => {
    expect(parseFuzzArgs(["--runs", "50", "--seed", "7", "--path", "3:0:1", "--max-ops", "5", "--hunt", "precision-collision"])).toEqual({
      runs: 50,
      seed: 7,
      jobs: 1,
      path: "3:0:1",
      maxOps: 5,
      hunt: "precision-collision",
      settings: "mixed",
      domain: "mixed",
      skip: [],
      json: false,
      trace: false,
      help: false,
    });
  });

  it("reads --settings, the props each scenario runs under (mixed unless told)", () => {
    expect(parseFuzzArgs(["--settings", "random"])).toMatchObject({ settings: "random" });
    expect(parseFuzzArgs(["--settings", "default"])).toMatchObject({ settings: "default" });
    expect(() => parseFuzzArgs(["--settings", "all"])).toThrow(/--settings needs one of default, mixed, random/);
  });

  it("reads --mutant, a mutant to search instead of the pipeline, and names it in the replay command", () => {
    expect(parseFuzzArgs(["--mutant", "a48d984"])).toMatchObject({ mutant: "a48d984" });
    expect(() => parseFuzzArgs(["--mutant"])).toThrow(/--mutant needs a mutant's id/);
    const report = { seed: 1, definition: {}, shape: { focus: "redrive-paths", mutant: "Rules/a48d984:every-path-open" }, totals: emptyTotals(), elapsedMs: 1, skipped: {}, failure: { scenario: { seed: 0, pollers: 1, ops: [], faults: [] }, violations: [], classes: [], path: "3:0", numRuns: 4, shrinks: 0 } } as FuzzReport;
    expect(replayCommand(report)).toBe("npm run sim:search -- --seed 1 --focus redrive-paths --settings default --domain payments --mutant Rules/a48d984:every-path-open --path 3:0 --runs 1");
  });

  it("reads --domain, the domain each scenario runs under (mixed unless told)", () => {
    expect(parseFuzzArgs([])).toMatchObject({ domain: "mixed" });
    expect(parseFuzzArgs(["--domain", "random"])).toMatchObject({ domain: "random" });
    expect(parseFuzzArgs(["--domain", "payments"])).toMatchObject({ domain: "payments" });
    expect(() => parseFuzzArgs(["--domain", "orders"])).toThrow(/--domain needs one of payments, mixed, random/);
  });

  it("reads --messages, the shape of ~N-message streams, and --jobs", () => {
    expect(parseFuzzArgs(["--messages", "20", "--jobs", "2"])).toMatchObject({ messages: 20, runs: 200, jobs: 2 });
  });

  it.each([
    [["--max-ops", "5", "--messages", "20"], "--max-ops and --messages shape the scenarios two ways"],
    [["--messages", "0"], "--messages needs an integer >= 1"],
    [["--seed", "1", "--path", "3:0", "--jobs", "2"], "--path replays one counterexample in one process"],
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
    const report = { seed: 9, definition: {}, shape: {}, totals: emptyTotals(), elapsedMs: 1, skipped: {}, failure: { scenario: { seed: 0, pollers: 1, faults: [], ops: [] }, violations: [], classes: [], path: "4:1", numRuns: 5, shrinks: 1 } } as FuzzReport;
    // The settings and domain modes are part of the draw: a report of the example's props and domain alone replays
    // with `--settings default --domain payments`.
    expect(replayCommand(report)).toBe("npm run sim:search -- --seed 9 --settings default --domain payments --path 4:1 --runs 1");
    expect(replayCommand({ ...report, shape: { messages: 20 } })).toBe("npm run sim:search -- --seed 9 --messages 20 --settings default --domain payments --path 4:1 --runs 1");
    expect(replayCommand({ ...report, shape: { maxOps: 8, settings: "random", domain: "random" } })).toBe("npm run sim:search -- --seed 9 --max-ops 8 --settings random --domain random --path 4:1 --runs 1");
  });
});

describe("Function: benchLine", () => {
  it("sums up scenarios, messages, executions, throughput and coverage in one line", () => {
    const totals = { ...emptyTotals(), runs: 50, messages: 1000, executions: 300, transitions: new Set(["A→B"]) };
    const definition = { StartAt: "A", States: { A: { Type: "Pass", Next: "B" }, B: { Type: "Succeed" } } };
    const report = { seed: 1, definition, shape: {}, totals, elapsedMs: 3_000, skipped: {} } as FuzzReport;
    expect(benchLine(report)).toBe("bench: 50 scenarios, 1000 messages (20.0 per scenario), 300 executions, 1000 schedules/min, states covered 2/2, transitions 1/2, violations 0");
  });
});
