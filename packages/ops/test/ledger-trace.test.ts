/** ledger get / ledger release / trace against the local cloud. */
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { ConflictError, ExitCode, getLedgerClaim, RefusedError, releaseClaim, renderLedgerClaim, renderTrace, runCli, traceKey } from "../src";
import { waitFor } from "@effectively-once/testing";
import { captureIo, payment, startOpsCloud, type OpsCloud } from "./support/ops-cloud";

let ops: OpsCloud;
const ids: Record<string, string> = {};
const ledgerTable = () => ops.cloud.outputs.ledger_table_name as string;

/** A claim left by a worker that died mid-flight, with a long lease: what `ledger release` is for. */
async function putStuckClaim(key: string, claimId = "claim-1"): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await ops.ctx.dynamodb.send(
    new PutCommand({
      TableName: ledgerTable(),
      Item: { pk: key, sk: "charge", status: "IN_PROGRESS", owner: "msg-dead-worker", claimId, payloadHash: "h".repeat(64), claimedAt: now, leaseExpiresAt: now + 600, expiresAt: now + 3600 },
    }),
  );
}

async function ledgerItem(key: string) {
  return (await ops.ctx.dynamodb.send(new GetCommand({ TableName: ledgerTable(), Key: { pk: key, sk: "charge" }, ConsistentRead: true }))).Item;
}

beforeAll(async () => {
  ops = await startOpsCloud({ namePrefix: "opsl" });
  ids.applied = await ops.send(payment("a", 100));
  expect(await ops.outcome(ids.applied)).toMatchObject({ outcome: "processed" });
  ids.mismatch = await ops.send(payment("a", 250));
  expect(await ops.outcome(ids.mismatch)).toMatchObject({ outcome: "quarantined", reason: "payload-mismatch" });
}, 30_000);

afterAll(async () => ops?.stop());

describe("ledger get", () => {
  it("shows a completed claim: status, owner, payload hash, completion, expiry; no lease", async () => {
    const claim = (await getLedgerClaim(ops.ctx, { key: '["t1","a"]' }))!;
    expect(claim).toMatchObject({ status: "COMPLETED", owner: ids.applied, operation: "charge", leaseExpired: false, retentionExpired: false });
    expect(claim.payloadHash).toMatch(/^[0-9a-f]{64}$/);
    expect(claim.leaseExpiresAt).toBeUndefined();
    expect(claim.completedAt).toBeGreaterThan(0);
    expect(claim.expiresAt! * 1000).toBeGreaterThan(Date.now());
    const text = renderLedgerClaim(claim, Date.now());
    expect(text).toMatch(/completed\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \((just now|\d+ s ago)\)/);
    expect(text).toMatch(/expires\s+.* \(in \d+ d\)/);
  });

  it("shows an IN_PROGRESS claim's lease relative to now", async () => {
    await putStuckClaim('["t1","lease"]');
    const claim = (await getLedgerClaim(ops.ctx, { key: '["t1","lease"]' }))!;
    expect(claim).toMatchObject({ status: "IN_PROGRESS", owner: "msg-dead-worker", leaseExpired: false });
    const claimedMs = claim.claimedAt! * 1000;
    expect(renderLedgerClaim(claim, claimedMs)).toMatch(/lease\s+until .* \(in 10 min\)/);
    // Rendered later: the flags follow the clock, not the moment of the read.
    const later = renderLedgerClaim(claim, claimedMs + 11 * 60_000);
    expect(later).toMatch(/lease\s+ran out .* \(60 s ago\)/);
    expect(later).toContain("lease ran out: the worker stopped or stalled");
  });

  it("unknown key: undefined in-process, exit 1 with one line from the CLI", async () => {
    expect(await getLedgerClaim(ops.ctx, { key: '["t1","never"]' })).toBeUndefined();
    const cli = captureIo();
    expect(await runCli(["ledger", "get", '["t1","never"]', "--state", ops.stateFile], cli.io)).toBe(ExitCode.Failure);
    expect(cli.out).toEqual([]);
    expect(cli.err).toEqual([expect.stringMatching(/^pipeline-ops: no ledger item for key "\["t1","never"\]" \(operation charge\)/)]);
  });

  it("--json prints the item as stored", async () => {
    const cli = captureIo();
    expect(await runCli(["ledger", "get", '["t1","a"]', "--state", ops.stateFile, "--json"], cli.io)).toBe(ExitCode.Ok);
    expect(JSON.parse(cli.out[0])).toMatchObject({ key: '["t1","a"]', status: "COMPLETED", owner: ids.applied });
  });
});

describe("ledger release", () => {
  it("refuses a COMPLETED claim and says why", async () => {
    const confirm = jest.fn(async () => true);
    await expect(releaseClaim(ops.ctx, { key: '["t1","a"]', confirm })).rejects.toThrow(RefusedError);
    await expect(releaseClaim(ops.ctx, { key: '["t1","a"]', confirm })).rejects.toThrow(/would let a duplicate apply the effect again/);
    expect(confirm).not.toHaveBeenCalled();
    expect(await ledgerItem('["t1","a"]')).toMatchObject({ status: "COMPLETED" });
  });

  it("keeps the claim when the operator says no", async () => {
    await putStuckClaim('["t1","no"]');
    const result = await releaseClaim(ops.ctx, { key: '["t1","no"]', confirm: async () => false });
    expect(result.released).toBe(false);
    expect(await ledgerItem('["t1","no"]')).toMatchObject({ status: "IN_PROGRESS" });
  });

  it("deletes nothing when the claim changed between the read and the delete", async () => {
    await putStuckClaim('["t1","race"]');
    const takenOver = async () => {
      // Another worker takes the claim over while the operator is deciding.
      await ops.ctx.dynamodb.send(
        new UpdateCommand({ TableName: ledgerTable(), Key: { pk: '["t1","race"]', sk: "charge" }, UpdateExpression: "SET claimId = :c", ExpressionAttributeValues: { ":c": "claim-2" } }),
      );
      return true;
    };
    await expect(releaseClaim(ops.ctx, { key: '["t1","race"]', confirm: takenOver })).rejects.toThrow(ConflictError);
    expect(await ledgerItem('["t1","race"]')).toMatchObject({ claimId: "claim-2" });
  });

  it("releases a stuck claim, after which the key is processed", async () => {
    await putStuckClaim('["t1","stuck"]');
    const seen: string[] = [];
    const off = ops.cloud.subscribe((e) => {
      if (e.type === "record-outcome") seen.push(`${e.messageId} ${e.outcome}`);
    });
    const blocked = await ops.send(payment("stuck"));
    // While the claim is held, the message is retried (it comes back every second).
    await waitFor(() => seen.includes(`${blocked} retry`), { message: "the blocked message to be retried" });
    off();

    const result = await releaseClaim(ops.ctx, { key: '["t1","stuck"]', confirm: async (claim) => claim.owner === "msg-dead-worker" });
    expect(result.released).toBe(true);
    expect(await ops.outcome(blocked)).toMatchObject({ outcome: "processed" });
    expect(await ledgerItem('["t1","stuck"]')).toMatchObject({ status: "COMPLETED", owner: blocked });
  });

  it("CLI: refuses to prompt without a terminal (exit 2), releases with --yes, asks on a terminal", async () => {
    await putStuckClaim('["t1","cli"]');
    const noTty = captureIo({ stdinIsTty: false });
    expect(await runCli(["ledger", "release", '["t1","cli"]', "--state", ops.stateFile], noTty.io)).toBe(ExitCode.Usage);
    expect(noTty.err).toEqual(["pipeline-ops: refusing to prompt: stdin is not a terminal; pass --yes to release without asking"]);
    expect(await ledgerItem('["t1","cli"]')).toBeDefined();

    const declined = captureIo({ stdinIsTty: true, answer: "n" });
    expect(await runCli(["ledger", "release", '["t1","cli"]', "--state", ops.stateFile], declined.io)).toBe(ExitCode.Failure);
    expect(declined.err.join("\n")).toMatch(/Warning: the lease runs until/);
    expect(await ledgerItem('["t1","cli"]')).toBeDefined();

    const yes = captureIo();
    expect(await runCli(["ledger", "release", '["t1","cli"]', "--state", ops.stateFile, "--yes"], yes.io)).toBe(ExitCode.Ok);
    expect(yes.out[0]).toMatch(/^released the IN_PROGRESS claim on key \["t1","cli"\]/);
    expect(await ledgerItem('["t1","cli"]')).toBeUndefined();

    const completed = captureIo();
    expect(await runCli(["ledger", "release", '["t1","a"]', "--state", ops.stateFile, "--yes"], completed.io)).toBe(ExitCode.Failure);
    expect(completed.err).toHaveLength(1);
  });
});

describe("trace", () => {
  it("puts ledger, Powertools record, effects and DLQ entries for a key in one view", async () => {
    const trace = await traceKey(ops.ctx, { key: '["t1","a"]' });
    expect(trace.known).toBe(true);
    expect(trace.verdict[0]).toMatch(/^applied once: \{.*"amount":100.*"currency":"EUR".*\} by message /);
    expect(trace.verdict[1]).toMatch(/1 later message for this key is in the DLQ \(payload-mismatch\)/);
    expect(trace.ledger).toMatchObject({ status: "COMPLETED", owner: ids.applied });
    // Named after the contract, not the function (second-layer-ids.ts): ops finds it from the stack outputs alone.
    expect(trace.powertools.id.startsWith("effectively-once.v1#")).toBe(true);
    expect(trace.powertools.record?.legacy).toBe(false);
    expect(trace.powertools.record).toMatchObject({ status: "COMPLETED", data: expect.objectContaining({ businessKey: '["t1","a"]', outcome: "applied" }) });
    expect(trace.effects).toMatchObject({ effectKey: '["t1","a"]#charge', calls: 1, callsByOutcome: { applied: 1 }, effect: expect.objectContaining({ messageId: ids.applied, summary: expect.stringContaining('"amount":100') }) });
    expect(trace.dlq.messages.map((m) => [m.reason, m.originalMessageId])).toEqual([["payload-mismatch", ids.mismatch]]);
    const text = renderTrace(trace, Date.now());
    for (const section of ["ledger (", "Powertools record (", "effects (", "DLQ ("]) expect(text).toContain(section);
  });

  it("says why a quarantined key was not applied", async () => {
    await ops.sendToDlq(payment("gone", 5)); // the queue's redrive moved it: no reason, no attributes
    const trace = await traceKey(ops.ctx, { key: '["t1","gone"]' });
    expect(trace.verdict[0]).toBe("not applied: quarantined as retries-exhausted");
    expect(trace.effects).toMatchObject({ calls: 0 });
    expect(trace.effects?.effect).toBeUndefined();
  });

  it("unknown key: known=false; the CLI prints the JSON and exits 1 with one line", async () => {
    expect((await traceKey(ops.ctx, { key: '["t1","nothing"]' })).known).toBe(false);
    const cli = captureIo();
    expect(await runCli(["trace", '["t1","nothing"]', "--state", ops.stateFile, "--json"], cli.io)).toBe(ExitCode.Failure);
    expect(JSON.parse(cli.out[0])).toMatchObject({ key: '["t1","nothing"]', known: false });
    expect(cli.err).toEqual([expect.stringMatching(/^pipeline-ops: nothing known about key \["t1","nothing"\]/)]);
  });
});
