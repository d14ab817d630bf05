/** One bin, one `--help` per command: each command's own usage on stdout, exit 0, nothing on stderr. */
import { COMMANDS } from "../../src/main";
import { cli } from "./support";

describe("effectively-once --help", () => {
  it("lists every command, and exits 2 with the list when no command is given", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const c of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${c.name} +\\S`, "m"));
    expect(COMMANDS.map((c) => c.name)).toEqual(["plan", "deployer-policy", "preflight", "capacity", "cost", "soak", "bench", "verify", "stepfunctions", "rehearse"]);
    const bare = await cli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe(help.stdout);
  });

  it.each(COMMANDS.map((c) => c.name))("%s --help: its own usage, exit 0, nothing on stderr", async (name) => {
    const { code, stdout, stderr } = await cli([name, "--help"]);
    expect(code).toBe(0);
    expect(stdout.startsWith(`Usage: npx effectively-once ${name}`)).toBe(true);
    expect(stderr).toEqual([]);
  });

  it("adds the stack flags to the help of each command that reads a stack, and plan names its own", async () => {
    const readers = COMMANDS.filter((c) => c.stack !== undefined).map((c) => c.name);
    expect(readers).toEqual(["deployer-policy", "preflight", "capacity", "cost"]);
    for (const name of readers) {
      const { stdout } = await cli([name, "--help"]);
      for (const flag of ["--stack-file <file>", "--stack <name>", "--pipeline <id>", "--synth-command <cmd>"]) expect(stdout).toContain(flag);
    }
    const plan = await cli(["plan", "--help"]);
    for (const flag of ["--stack NAME", "--synth-command CMD", "--offline", "--online", "--against", "--from-json", "--fail-on-risk", "--base-env", "--head-env"]) expect(plan.stdout).toContain(flag);
  });

  it.each(["preflight", "verify", "capacity", "cost", "soak"])("%s --help offers --json (machine-readable output on request)", async (name) => {
    const { stdout } = await cli([name, "--help"]);
    expect(stdout).toMatch(/^ +--json +\S/m);
  });

  it("refuses an unknown command in one line naming the commands, exit 2", async () => {
    const { code, stdout, stderr } = await cli(["plna"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toEqual([`effectively-once: unknown command "plna"; one of ${COMMANDS.map((c) => c.name).join(", ")} (see --help)`]);
  });
});
