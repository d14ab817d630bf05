import { MutateUsageError, parseMutateArgs } from "../../src/mutants/cli";

describe("Function: parseMutateArgs", () => {
  it("reads --runs, --only and --oracle, with the defaults a full run uses", () => {
    expect(parseMutateArgs([])).toEqual({ oracle: "narrow", help: false });
    expect(parseMutateArgs(["--runs", "5", "--only", "Release:,Claim:", "--oracle", "wide"])).toEqual({ runs: 5, only: "Release:,Claim:", oracle: "wide", help: false });
    expect(parseMutateArgs(["--help"]).help).toBe(true);
    expect(parseMutateArgs(["-h"]).help).toBe(true);
  });

  it.each([
    [["--bogus"], 'unknown argument "--bogus"'],
    [["--runs", "0"], '--runs needs an integer >= 1, got "0"'],
    [["--runs"], "--runs needs an integer >= 1, got nothing"],
    [["--only"], "--only needs a part of a mutant's id"],
    [["--only", ","], "--only needs a part of a mutant's id"],
    [["--oracle", "loose"], "--oracle is narrow (the model) or wide"],
  ])("refuses %j, naming the flag and pointing at --help", (argv, message) => {
    expect(() => parseMutateArgs(argv)).toThrow(MutateUsageError);
    expect(() => parseMutateArgs(argv)).toThrow(message);
    expect(() => parseMutateArgs(argv)).toThrow("see npm run sim:mutants -- --help");
  });
});
