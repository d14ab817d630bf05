/**
 * `npm run sim:mutants` and `npm run sim:search` answer --help with their usage and exit codes, and refuse what they
 * do not know, without starting a run: a full mutation run takes many minutes, and `--help` used to start one.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { MUTATE_HELP, parseMutateArgs } from "../src/mutants/cli";
import { FUZZ_HELP, parseFuzzArgs } from "../src/fuzz/cli";

const ROOT = join(__dirname, "../../..");

/** Runs a script as `npm run` does; one that started a run instead of answering is stopped at the limit (status null). */
function script(name: string, argv: string[]) {
  const out = spawnSync(process.execPath, ["--import", "tsx", join(ROOT, "scripts", name), ...argv], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** The flags a usage text's first line names (`--runs`, `--only`, …). */
const usageFlags = (help: string) => [...new Set(help.split("\n")[0].match(/--[a-z-]+/g) ?? [])];

/** A valid value for each flag that takes one. */
const FUZZ_VALUES = new Map([["--focus", "ledger-loss"], ["--settings", "random"], ["--domain", "random"], ["--hunt", "separator-collision"], ["--skip", "separator-collision"], ["--mutant", "Release:"]]);
const SWITCHES = new Set(["--help", "--json", "--trace"]);

describe("The usage texts", () => {
  it.each([
    ["sim:mutants", MUTATE_HELP, (flag: string) => parseMutateArgs(SWITCHES.has(flag) ? [flag] : [flag, flag === "--oracle" ? "wide" : "1"])],
    ["sim:search", FUZZ_HELP, (flag: string) => parseFuzzArgs(SWITCHES.has(flag) ? [flag] : flag === "--path" ? [flag, "1", "--seed", "1"] : [flag, FUZZ_VALUES.get(flag) ?? "1"])],
  ])("%s: names in its usage line only flags it accepts, documents each, and states its exit codes", (_name, help, parse) => {
    const flags = usageFlags(help);
    expect(flags).toContain("--runs");
    for (const flag of flags) {
      expect(() => parse(flag)).not.toThrow();
      expect([flag, help.includes(`\n  ${flag}`)]).toEqual([flag, true]);
    }
    // Every option line's flag is in the usage line too.
    const documented = [...help.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]);
    expect(documented.filter((flag) => !flags.includes(flag))).toEqual([]);
    expect(help).toMatch(/Exit codes:\n {2}0 .+\n {2}1 .+\n {2}2 /);
  });
});

describe("scripts/mutate.ts", () => {
  it("answers --help with the usage and exit 0, without starting a run", () => {
    expect(script("mutate.ts", ["--help"])).toMatchObject({ status: 0, stdout: `${MUTATE_HELP}\n` });
  });

  it("refuses an unknown flag with exit 2 before any run", () => {
    const out = script("mutate.ts", ["--runs", "1", "--bogus"]);
    expect(out).toMatchObject({ status: 2, stdout: "" });
    expect(out.stderr).toContain('unknown argument "--bogus"');
  });
});

describe("scripts/fuzz.ts", () => {
  it("answers --help with the usage and exit 0, without starting a run", () => {
    expect(script("fuzz.ts", ["--help"])).toMatchObject({ status: 0, stdout: `${FUZZ_HELP}\n` });
  });
});
