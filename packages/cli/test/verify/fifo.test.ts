/**
 * verify on a FIFO stack (the ledger-entries example, fifo: true), offline: every probe sends with a message group
 * and a deduplication id of its own, and the FIFO probe answers as FIFO mode assumes; on a standard stack the FIFO
 * probe does not apply.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runVerifyCli } from "../../src/verify/cli";
import { synthProbeStack, type ProbeStack } from "../../src/verify/probe-stack";
import { readAnswers } from "./support/fixtures";

let dir: string;
let fifo: ProbeStack;
let standard: ProbeStack;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "verify-fifo-"));
  fifo = synthProbeStack({ PIPELINE_APP: "ledger-entries" }, "ledger-entries");
  standard = synthProbeStack({ PIPELINE_APP: "payments" }, "payments");
}, 60_000);
afterAll(() => {
  fifo?.cleanup();
  standard?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function verify(stack: ProbeStack, argv: string[]) {
  let out = "";
  const err: string[] = [];
  const code = await runVerifyCli(argv, { env: {}, stdout: (t) => (out += t), stderr: (l) => err.push(l), probeStack: () => ({ ...stack, cleanup: () => undefined }) });
  return { code, out, err: err.join("\n") };
}

describe("verify on a FIFO stack", () => {
  it("runs the FIFO probe and the probes that send on the local cloud, each answering as FIFO mode assumes", async () => {
    const record = join(dir, "fifo.json");
    const { code, err } = await verify(fifo, ["--target", "local", "--only", "fifo-group-order,failed-record-return,same-key-batches,message-move", "--record", record]);
    expect(err).not.toMatch(/verify failed|did not finish/);
    expect(code).toBe(0);
    const answers = readAnswers(record).answers;
    expect(answers.every((a) => a.error === undefined)).toBe(true);
    const facts = Object.fromEntries(answers.find((a) => a.probe === "fifo-group-order")!.facts.map(([name, value]) => [name, value]));
    expect(facts).toMatchObject({
      "first delivery of the failing record": "handed back",
      "the group's next record before the failed one's retry": "never applied",
      "the failed record came back": "after the visibility timeout",
      "the group applied in send order": "yes",
      "another group while the first waited": "applied meanwhile",
      "quarantine copy's group": "the record's",
      "quarantine copy's deduplication id": "64 hex digits, as sent",
    });
    const sameKey = Object.fromEntries(answers.find((a) => a.probe === "same-key-batches")!.facts.map(([name, value]) => [name, value]));
    expect(sameKey).toMatchObject({ first: "acknowledged", second: "acknowledged", "second quarantined": "false" });
  }, 180_000);

  it("leaves the FIFO probe out on a standard stack", async () => {
    const { code, out } = await verify(standard, ["--target", "local", "--only", "fifo-group-order", "--dry-run"]);
    expect(code).toBe(0);
    expect(out).not.toMatch(/SendMessage/);
    const dry = await verify(fifo, ["--target", "local", "--only", "fifo-group-order", "--dry-run"]);
    expect(dry.out).toMatch(/SendMessage .*×5/);
  }, 60_000);
});
