import { parseBenchArgs } from "../../src/load/bench-args";
import { BENCH_DEFAULTS, DEFAULT_BENCH_JSON } from "../../src/load/bench-options";
import { LoadUsageError } from "@effectively-once/local-cloud/harness";
import { parseSoakArgs } from "../../src/load/soak-args";
import { SOAK_DEFAULTS } from "@effectively-once/local-cloud/harness";

describe("Function: parseSoakArgs", () => {
  it("gives the defaults with no flags: 10,000 messages, 30% duplicates, the realistic fault profile", () => {
    // Act
    const cli = parseSoakArgs([]);

    // Assert
    expect(cli.options).toEqual(SOAK_DEFAULTS);
    expect(cli.options).toMatchObject({ messages: 10_000, duplicateRatio: 0.3, faultProfile: "realistic" });
    expect(cli).toMatchObject({ help: false, json: false, progress: true });
  });

  it("reads shares as fractions or percentages, and every other flag", () => {
    // Act
    const cli = parseSoakArgs(["--messages", "1_500", "--duplicates", "25%", "--invalid", "0.05", "--seed", "s1", "--faults", "harsh", "--batch-size", "5", "--pollers", "2", "--function-envs", "4", "--rate", "200", "--backlog", "0", "--dynamo", "worker", "--json", "--json-file", "out/soak.json", "--no-progress"]);

    // Assert
    expect(cli.options).toMatchObject({ messages: 1500, duplicateRatio: 0.25, invalidRatio: 0.05, seed: "s1", faultProfile: "harsh", batchSize: 5, pipeConcurrency: 2, functionEnvironments: 4, rate: 200, maxBacklog: 0, dynamoPlacement: "worker" });
    expect(cli).toMatchObject({ json: true, jsonFile: "out/soak.json", progress: false });
  });

  it.each([
    [["--messages", "0"], "--messages: must be a whole number from 1"],
    [["--duplicates", "1.5"], "--duplicates: must be a share from 0 to 0.9"],
    [["--faults", "chaos"], "--faults: must be one of none, realistic, harsh"],
    [["--batch-size", "11"], "--batch-size: must be a whole number from 1 to 10"],
    [["--duplicates", "0.9", "--invalid", "0.1"], "--duplicates: duplicates + invalid + conflicts + rejected add up to"],
    [["--frobnicate"], "see npx effectively-once soak --help"],
  ])("names the flag and the fix for %j", (argv, message) => {
    expect(() => parseSoakArgs(argv)).toThrow(LoadUsageError);
    expect(() => parseSoakArgs(argv)).toThrow(message);
  });
});

describe("Function: parseBenchArgs", () => {
  it("gives the defaults: batch sizes 1 and 10, 20% duplicates, JSON under tmp/", () => {
    // Act
    const cli = parseBenchArgs([]);

    // Assert
    expect(cli.options).toEqual(BENCH_DEFAULTS);
    expect(cli.options).toMatchObject({ batchSizes: [1, 10], duplicateRatio: 0.2 });
    expect(cli.jsonFile).toBe(DEFAULT_BENCH_JSON);
  });

  it("reads a list of batch sizes and refuses one out of range", () => {
    expect(parseBenchArgs(["--batch-sizes", "1, 5,10"]).options.batchSizes).toEqual([1, 5, 10]);
    expect(() => parseBenchArgs(["--batch-sizes", "1,20"])).toThrow("--batch-sizes: must be a whole number from 1 to 10");
  });
});
