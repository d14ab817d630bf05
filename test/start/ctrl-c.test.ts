/**
 * Ctrl-C on `npm start -- --serve` while the local cloud is busy: the command package.json really runs, in its
 * own process group, interrupted the way a terminal does (SIGINT to the whole group) while a producer keeps the
 * pipe, the interpreter and the functions busy. The state file and the functions' temporary folders must be
 * gone afterwards. Before, `tsx scripts/start.ts` relayed the signal a second time when the busy child did not
 * acknowledge it within ~30 ms (then SIGKILL), and the second SIGINT found the spent `process.once` handler:
 * exit 130 mid-stop, with both left behind.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import { createSqsClient } from "@effectively-once/local-cloud/emulators";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { waitFor } from "@effectively-once/testing";

const ROOT = join(__dirname, "../..");
const START = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;

/**
 * `npm start` with `args`, as npm runs it: the script's words, with node_modules/.bin on the PATH (no shell, so the
 * exit status is the command's own), in its own process group, its temporary folders under `tmp`.
 */
function startNpmStart(args: readonly string[], tmp: string) {
  const [command, ...words] = START.split(/\s+/);
  const child = spawn(command, [...words, ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, FORCE_COLOR: "0", TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { text: "" };
  child.stdout.on("data", (d: Buffer) => (output.text += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output.text += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  return { child, output, exited };
}

describe("npm start -- --serve, interrupted under load", () => {
  let stack: SynthesizedStack;
  let dir: string;
  beforeAll(() => {
    stack = synthStack();
    dir = mkdtempSync(join(tmpdir(), "ctrl-c-"));
  });
  afterAll(() => {
    stack.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it("stops cleanly: exit 0, no state file, no temporary function folder left", async () => {
    // Arrange: the start command in its own process group, with its own temp dir (where function bundles unzip).
    const stateFile = join(dir, "state.json");
    const childTmp = mkdtempSync(join(dir, "tmp-"));
    const args = ["--stack-file", join(stack.stackDir, "cdk.tf.json"), "--serve", "--state-file", stateFile, "--retry-after", "1"];
    const { child, output, exited } = startNpmStart(args, childTmp);
    let producing = true;
    try {
      await waitFor(() => output.text.includes("Ctrl-C stops."), { timeoutMs: 60_000, message: "serve mode never printed its endpoints" });
      expect(readdirSync(childTmp).some((name) => name.startsWith("lambda-"))).toBe(true);
      const state = JSON.parse(readFileSync(stateFile, "utf8"));
      const sqs = createSqsClient(state.endpoints.sqs);
      const processed = () => (output.text.match(/ processed /g) ?? []).length;
      // A producer that keeps the queue full until the end.
      const producer = (async () => {
        for (let batch = 0; producing; batch += 1) {
          const Entries = Array.from({ length: 10 }, (_, i) => ({
            Id: String(i),
            MessageBody: JSON.stringify({ tenantId: "ctrl-c", orderId: `o-${batch}-${i}`, amount: 100 + i, currency: "EUR" }),
          }));
          await sqs.send(new SendMessageBatchCommand({ QueueUrl: state.outputs.queue_url, Entries })).catch(() => undefined);
        }
      })();
      await waitFor(() => processed() >= 50, { timeoutMs: 60_000, message: "the cloud never got busy" });

      // Act: Ctrl-C, as a terminal sends it, while records are in flight; and a second one 50 ms later, as an
      // impatient operator (or tsx's relay of the first) sends it. Neither may cut the stop short.
      process.kill(-child.pid!, "SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (child.exitCode === null) process.kill(-child.pid!, "SIGINT");
      const result = await exited;
      producing = false;
      await producer;
      sqs.destroy();

      // Assert
      const left = readdirSync(childTmp).filter((name) => name.startsWith("lambda-"));
      // The second Ctrl-C usually lands mid-stop ("still stopping"); on a fast machine the stop can end first. Either
      // way the process must exit 0 with nothing left behind (before the fix it exited 130 mid-stop, files left).
      expect({ ...result, stopped: output.text.includes("stopped."), stateFileLeft: existsSync(stateFile), functionFoldersLeft: left }).toEqual({
        code: 0,
        signal: null,
        stopped: true,
        stateFileLeft: false,
        functionFoldersLeft: [],
      });
    } finally {
      producing = false;
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    }
  }, 120_000);

  it("the sample stream, interrupted mid-run: exit 130 after a clean stop, no temporary function folder left", async () => {
    const childTmp = mkdtempSync(join(dir, "tmp-"));
    const { child, output, exited } = startNpmStart(["--stack-file", join(stack.stackDir, "cdk.tf.json"), "--orders", "400", "--retry-after", "1"], childTmp);
    try {
      await waitFor(() => output.text.includes("local cloud up in") && readdirSync(childTmp).some((name) => name.startsWith("lambda-")), {
        timeoutMs: 60_000,
        message: "the demo never started its functions",
      });
      process.kill(-child.pid!, "SIGINT");
      const result = await exited;
      const left = readdirSync(childTmp).filter((name) => name.startsWith("lambda-"));
      expect({ ...result, interrupted: output.text.includes("interrupted: stopping the local cloud"), functionFoldersLeft: left }).toEqual({
        code: 130,
        signal: null,
        interrupted: true,
        functionFoldersLeft: [],
      });
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL");
    }
  }, 120_000);
});
