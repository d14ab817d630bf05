/** The CLI entry: help, usage errors, target errors and exit codes; spawned through packages/ops/bin/pipeline-ops.js for the real thing. */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeStateFile } from "@effectively-once/contract";
import { ExitCode, runCli } from "../src";
import { captureIo } from "./support/ops-cloud";

const root = join(__dirname, "..", "..", "..");
const dir = mkdtempSync(join(tmpdir(), "ops-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs packages/ops/bin/pipeline-ops.js; resolves with the exit code and both streams. */
function spawnCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, "packages", "ops", "bin", "pipeline-ops.js"), ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code) : 0, stdout, stderr });
    });
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("CLI entry (spawned)", () => {
  it("help exits 0; usage errors exit 2 and target errors exit 3, each with one line on stderr and no stack", async () => {
    const port = await closedPort();
    const unreachable = writeStateFile(
      {
        version: 1,
        pid: process.pid, // alive: the test process stands in for the cloud's owner
        startedAt: new Date().toISOString(),
        stackFile: "x",
        region: "us-east-1",
        endpoints: { sqs: `http://127.0.0.1:${port}`, dynamodb: `http://127.0.0.1:${port}` },
        outputs: { dlq_url: `http://sqs.us-east-1.localhost:${port}/000000000000/x-dlq`, ledger_table_name: "x-ledger", operation: "charge" },
      },
      join(dir, "unreachable.json"),
    );
    const [help, usage, noCloud, down] = await Promise.all([
      spawnCli(["--help"]),
      spawnCli(["ledger", "get"]),
      spawnCli(["dlq", "list", "--state", join(dir, "missing.json")]),
      spawnCli(["ledger", "get", '["t1","o-1"]', "--state", unreachable]),
    ]);
    expect(help).toMatchObject({ code: ExitCode.Ok, stderr: "" });
    expect(help.stdout).toContain("Exit codes: 0 ok");

    expect(usage.code).toBe(ExitCode.Usage);
    expect(usage.stderr).toBe("pipeline-ops: ledger get: missing <key> (usage: ledger get <key> …)\n");

    expect(noCloud.code).toBe(ExitCode.Target);
    expect(noCloud.stderr.trim().split("\n")).toHaveLength(1);
    expect(noCloud.stderr).toMatch(/no local cloud is running .*start it with `npm start -- --serve`/);

    expect(down.code).toBe(ExitCode.Target);
    expect(down.stdout).toBe("");
    expect(down.stderr.trim().split("\n")).toEqual([expect.stringMatching(new RegExp(`^pipeline-ops: cannot reach DynamoDB at http://127.0.0.1:${port} while reading the ledger \\(ECONNREFUSED\\)`))]);
  }, 20_000);
});

describe("CLI (in-process)", () => {
  it.each(["dlq list", "dlq redrive", "ledger get", "ledger release", "trace"])("%s --help prints its usage and exits 0", async (command) => {
    const cli = captureIo();
    expect(await runCli([...command.split(" "), "--help"], cli.io)).toBe(ExitCode.Ok);
    expect(cli.out[0]).toMatch(new RegExp(`^Usage: pipeline-ops ${command}`));
    expect(cli.out[0]).toContain("Exit codes:");
  });

  it.each([
    [[], /Usage: pipeline-ops <command>/],
    [["frobnicate"], /unknown command "frobnicate"/],
    [["dlq"], /"dlq" needs a subcommand: dlq list\|redrive/],
    [["ledger", "drop", "k"], /unknown command "ledger drop": use ledger get\|release/],
    [["dlq", "list", "--local", "--max", "0"], /--max must be a whole number from 1 to 1000, got "0"/],
    [["dlq", "redrive", "--local", "--reason", "late"], /--reason "late" is not a DLQ reason: use one of invalid-message, payload-mismatch, rejected, moved-back-too-late, retries-exhausted/],
    [["trace", "k", "extra", "--local"], /trace: unexpected argument "extra"/],
    [["trace", "k", "--local", "--outputs-file", "o.json"], /give one of them/],
    [["dlq", "list", "--local", "--verbose"], /dlq list: Unknown option '--verbose' \(see `dlq list --help`\)$/],
  ])("usage error %j exits 2", async (args, message) => {
    const cli = captureIo();
    expect(await runCli(args as string[], cli.io)).toBe(ExitCode.Usage);
    expect(cli.out).toEqual([]);
    expect(cli.err.join("\n")).toMatch(message);
  });

  it("an outputs file without the output a command needs is a target error naming it (exit 3), before any call", async () => {
    const outputs = join(dir, "outputs.json");
    writeFileSync(outputs, JSON.stringify({ "payments-pipeline": { region: "us-east-1", queue_url: "q" } }));
    const cli = captureIo();
    expect(await runCli(["dlq", "list", "--outputs-file", outputs, "--sqs-endpoint", "http://127.0.0.1:9"], cli.io)).toBe(ExitCode.Target);
    expect(cli.err).toEqual([expect.stringMatching(/^pipeline-ops: stack payments-pipeline in .*outputs\.json has no "dlq_url" output/)]);
  });

  it("payload-mismatch redrive without --force is refused before any call (exit 1)", async () => {
    const live = writeStateFile(
      { version: 1, pid: process.pid, startedAt: "", stackFile: "x", region: "us-east-1", endpoints: { sqs: "http://127.0.0.1:9", dynamodb: "http://127.0.0.1:9" }, outputs: { queue_url: "q", dlq_url: "d" } },
      join(dir, "live.json"),
    );
    const cli = captureIo();
    expect(await runCli(["dlq", "redrive", "--state", live, "--reason", "payload-mismatch"], cli.io)).toBe(ExitCode.Failure);
    expect(cli.err).toEqual([expect.stringMatching(/refusing to redrive payload-mismatch messages without --force: the key was already applied with another payload/)]);
  });
});
