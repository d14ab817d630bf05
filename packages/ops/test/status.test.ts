/** pipeline-ops status against the local cloud, with the real SDK. */
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { ExitCode, runCli } from "../src";
import { captureIo, payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

let ops: OpsCloud;
const ledgerTable = () => ops.cloud.outputs.ledger_table_name as string;

/** A claim whose worker died: IN_PROGRESS, lease `leaseFromNow` seconds from now (negative: ran out). */
async function putClaim(orderId: string, leaseFromNow: number): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await ops.ctx.dynamodb.send(
    new PutCommand({
      TableName: ledgerTable(),
      Item: { pk: `["t1","${orderId}"]`, sk: "charge", status: "IN_PROGRESS", owner: `msg-${orderId}`, claimId: `c-${orderId}`, payloadHash: "h".repeat(64), claimedAt: now - 600, leaseExpiresAt: now + leaseFromNow, expiresAt: now + 3600 },
    }),
  );
}

async function status(...args: string[]) {
  const cli = captureIo();
  const code = await runCli(["status", "--state", ops.stateFile, ...args], cli.io);
  return { code, out: cli.out.join("\n"), err: cli.err.join("\n") };
}

beforeAll(async () => {
  ops = await startOpsCloud();
}, 90_000);

afterAll(async () => ops?.stop());

describe("status", () => {
  it("exits 0 on an idle pipeline and says the local cloud evaluates no alarms, rather than inventing states", async () => {
    // Act
    const { code, out } = await status();

    // Assert
    expect(code).toBe(ExitCode.Ok);
    expect(out).toMatch(/^OK: nothing needs a person/);
    expect(out).toContain("alarms: not evaluated locally");
    expect(out).toMatch(/oldest\s+age: not available locally/);
  });

  describe("with a quarantine, a redrive move and claims stuck and live", () => {
    let sentToDlq: number;
    beforeAll(async () => {
      const applied = await ops.send(payment("st-a", 100));
      expect(await ops.outcome(applied)).toMatchObject({ outcome: "processed" });
      const mismatch = await ops.send(payment("st-a", 250));
      expect(await ops.outcome(mismatch)).toMatchObject({ outcome: "quarantined", reason: "payload-mismatch" });
      sentToDlq = Date.now();
      await ops.sendToDlq(payment("st-moved"));
      await putClaim("st-stuck", -60);
      await putClaim("st-live", 600);
    }, 30_000);

    it("reports the DLQ by reason with the oldest message's deletion time (enqueue + the DLQ's retention), and exits 1", async () => {
      // Act
      const { code, out } = await status("--json");

      // Assert
      expect(code).toBe(ExitCode.Failure);
      const s = JSON.parse(out);
      expect(s.dlq.byReason).toEqual({ "payload-mismatch": 1, "retries-exhausted": 1 });
      expect(s.dlq.retentionSeconds).toBe(ops.cloud.outputs.dead_letter_retention_seconds);
      expect(s.dlq.oldest.reason).toBe("payload-mismatch");
      expect(s.dlq.oldest.sentAt).toBeLessThanOrEqual(sentToDlq);
      expect(s.dlq.oldest.expiresAt).toBe(s.dlq.oldest.sentAt + s.dlq.retentionSeconds * 1000);
      expect(s.alarms).toEqual({ evaluated: false, note: "alarms: not evaluated locally" });
      expect(s.attention).toEqual(expect.arrayContaining([expect.stringMatching(/^the DLQ holds 2 message/), "1 claim(s) IN_PROGRESS past their lease"]));
    });

    it("finds the claim past its lease, not the live one, and counts the read units of its scan", async () => {
      // Act
      const s = JSON.parse((await status("--json")).out);

      // Assert
      expect(s.stuckClaims.found.map((c: { key: string }) => c.key)).toEqual(['["t1","st-stuck"]']);
      expect(s.stuckClaims.truncated).toBe(false);
      expect(s.stuckClaims.scannedItems).toBeGreaterThanOrEqual(3);
      expect(s.stuckClaims.readUnits).toBeGreaterThan(0);
    });

    it("stops its scan at --scan-items and says so", async () => {
      // Act
      const s = JSON.parse((await status("--json", "--scan-items", "1")).out);

      // Assert
      expect(s.stuckClaims.scannedItems).toBe(1);
      expect(s.stuckClaims.truncated).toBe(true);
    });

    it("prints, for each stuck claim, a release command that works as printed", async () => {
      // Arrange
      const { out } = await status();
      const line = out.split("\n").find((l) => l.includes("free it:"))!;
      const printed = line.slice(line.indexOf("pipeline-ops ")).trim();
      expect(printed).toBe(`pipeline-ops ledger release '["t1","st-stuck"]' --operation charge --state ${ops.stateFile}`);
      const argv = shellSplit(printed).slice(1);

      // Act
      const cli = captureIo();
      const code = await runCli([...argv, "--yes"], cli.io);

      // Assert
      expect(code).toBe(ExitCode.Ok);
      expect(JSON.parse((await status("--json")).out).stuckClaims.found).toEqual([]);
    });
  });

  it("documents itself", async () => {
    const cli = captureIo();
    expect(await runCli(["status", "--help"], cli.io)).toBe(ExitCode.Ok);
    expect(cli.out.join("")).toMatch(/Usage: pipeline-ops status <target>/);
  });
});

/** Splits a command line the way a POSIX shell does for single-quoted and plain words (enough for what status prints). */
function shellSplit(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'((?:[^']|'\\'')*)'|(\S+)/g)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}
