/**
 * The harness judges the promise for a side effect that is not the effect journal: a stack whose function writes
 * its own table (packages/local-cloud/test/harness/fixtures/billing), run on the local cloud, applications counted from the team's
 * table or from the function's invocation log lines.
 */
import { DeleteItemCommand, ScanCommand, type AttributeValue, type DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { effectKey } from "@effectively-once/contract";
import { startLocalCloud, type LocalCloud } from "../../src";
import { collectInvocations, observe, publishBodies, type Application, type HarnessTarget, type InvocationCollector, type SentMessage } from "../../src/harness";
import { synthStack } from "../../src/stack/synth";

const FIXTURE = join(__dirname, "fixtures/billing");
const bill = (account: number, amountCents = 900) => ({ accountId: `acct-${account}`, period: "2026-11", amountCents });

async function scanAll(dynamodb: DynamoDBClient, table: string): Promise<Record<string, AttributeValue>[]> {
  const items: Record<string, AttributeValue>[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await dynamodb.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The team's reader: one application per bill item. */
const billsOf = (cloud: LocalCloud) => async (): Promise<Application[]> =>
  (await scanAll(cloud.clients.dynamodb, String(cloud.outputs.bills_table_name))).map((item) => ({
    effectKey: effectKey(item.businessKey.S!, item.operation.S!),
    messageId: item.messageId.S!,
  }));

/** Empties a table (an operator's mistake the pipeline cannot see). */
async function wipe(dynamodb: DynamoDBClient, table: string, keyNames: readonly string[]): Promise<void> {
  for (const item of await scanAll(dynamodb, table)) {
    await dynamodb.send(new DeleteItemCommand({ TableName: table, Key: Object.fromEntries(keyNames.filter((k) => item[k]).map((k) => [k, item[k]])) }));
  }
}

describe("Harness: any side effect (a stack writing its own table, on the local cloud)", () => {
  let outdir: string;
  let cloud: LocalCloud;
  let collector: InvocationCollector;
  let target: HarnessTarget;
  const sent: SentMessage[] = [];

  beforeAll(async () => {
    outdir = mkdtempSync(join(tmpdir(), "harness-any-effect-"));
    // No batching window: each drain would otherwise wait out the pipe's real second (4 drains), and the harness's
    // judgement, not batching, is what this file checks.
    const { stackFile } = synthStack({ stackName: "billing", region: "us-east-1", namePrefix: "billing" }, { app: FIXTURE, outdir, overrides: { maximumBatchingWindowSeconds: 0 } });
    collector = collectInvocations();
    cloud = await startLocalCloud({ stackFile, functionLogs: collector.functionLogs, retryVisibilityTimeoutSeconds: 1 });
    target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    sent.push(...(await publishBodies(target, [bill(1), bill(2), bill(3), bill(1), { accountId: "acct-4", period: "2026-11", amountCents: 0 }, bill(5, 13)])));
    await cloud.drain({ timeoutMs: 60_000 });
    sent.push(...(await publishBodies(target, [bill(2, 1500)]))); // same key, another amount: a conflict
    await cloud.drain({ timeoutMs: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await cloud?.stop();
    rmSync(outdir, { recursive: true, force: true });
  });

  it("counts applications from the team's own table and finds every fate", async () => {
    const { verification: v, dlq, appliedFrom } = await observe(target, sent, { applications: billsOf(cloud) });

    expect(appliedFrom).toBe("applications");
    expect({ lost: v.lost, doubleApplied: v.doubleApplied, applied: v.applied }).toEqual({ lost: [], doubleApplied: [], applied: 3 });
    expect(dlq.map((m) => m.reason).sort()).toEqual(["invalid-message", "payload-mismatch", "rejected"]);
  });

  it("counts the same from the function's invocation log lines", async () => {
    await collector.settle();
    const records = collector.records();
    const { verification: v, appliedFrom } = await observe(target, sent, { invocations: records });

    expect(appliedFrom).toBe("invocations");
    expect(records.map((r) => r.outcome).sort()).toEqual(expect.arrayContaining(["processed", "rejected"]));
    expect({ lost: v.lost, doubleApplied: v.doubleApplied, applied: v.applied }).toEqual({ lost: [], doubleApplied: [], applied: 3 });
  });

  it("without a source of applications, names the options and the fix", async () => {
    await expect(observe(target, sent)).rejects.toThrow(/pass \{ applications \}.*\{ invocations \}.*EffectJournalTable/);
  });

  it("flags a message whose application is missing from the team's records as lost", async () => {
    const realBills = billsOf(cloud);
    const withoutAcct3 = async () => (await realBills()).filter((a) => !a.effectKey.includes("acct-3"));

    const { verification: v } = await observe(target, sent, { applications: withoutAcct3 });

    expect(v.lost).toEqual([sent[2].messageId]);
  });

  it("flags a key applied twice, counted either way, after both layers forgot it and the message came again", async () => {
    // Both records of the pipeline's memory wiped, then the producer resends: the function bills acct-1 again.
    await wipe(cloud.clients.dynamodb, String(cloud.outputs.ledger_table_name), ["pk", "sk"]);
    await wipe(cloud.clients.dynamodb, String(cloud.outputs.idempotency_table_name), ["id"]);
    sent.push(...(await publishBodies(target, [bill(1)])));
    await cloud.drain({ timeoutMs: 60_000 });
    const key = sent[0].effectKey!;

    const fromTable = await observe(target, sent, { applications: billsOf(cloud) });
    await collector.settle();
    const fromLog = await observe(target, sent, { invocations: collector.records() });

    expect(fromTable.verification.doubleApplied).toEqual([key]);
    expect(fromLog.verification.doubleApplied).toEqual([key]);
  });
});
