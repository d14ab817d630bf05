import { ExitCode, main } from "../../src/terraform/rehearse/cli";

function run(argv: string[], env: NodeJS.ProcessEnv = process.env) {
  const out: string[] = [];
  const err: string[] = [];
  return main(argv, { env, stdout: (t) => out.push(t), stderr: (l) => err.push(l) }).then((code) => ({ code, out: out.join(""), err: err.join("\n") }));
}

describe("Function: main (npm run rehearse)", () => {
  it("exits 3 and says NOT RUN when moto_server is missing, before starting anything", async () => {
    const r = await run([], { ...process.env, MOTO_SERVER_BIN: "/nonexistent/moto_server" });
    expect(r.code).toBe(ExitCode.NotRun);
    expect(r.err).toMatch(/^rehearse: NOT RUN: no moto_server on PATH: pip install 'moto\[server\]==5\.2\.1' or set MOTO_SERVER_BIN$/);
    expect(r.out).toBe("");
  });

  it("exits 3 when terraform is missing", async () => {
    const r = await run([], { ...process.env, TERRAFORM_BIN: "/nonexistent/terraform" });
    expect(r.code).toBe(ExitCode.NotRun);
    expect(r.err).toContain("NOT RUN: no terraform CLI");
  });

  it("exits 2 on an unknown flag or break test, naming it and the choices", async () => {
    const flag = await run(["--bogus"]);
    expect(flag.code).toBe(ExitCode.Usage);
    expect(flag.err).toContain("--bogus");
    const unknown = await run(["--break", "nope"]);
    expect(unknown.code).toBe(ExitCode.Usage);
    expect(unknown.err).toBe("rehearse: --break nope: unknown break test; use one of missing-dlq, malformed-iam, invalid-json-iam");
  });

  it("prints the exit codes in --help", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(ExitCode.Ok);
    expect(r.out).toContain("Exit codes: 0 passed, 1 failure or unexplained drift, 2 usage, 3 NOT RUN");
  });
});
