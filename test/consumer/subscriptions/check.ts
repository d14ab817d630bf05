// Runs the synthesized stack on the local cloud, publishes subscriptions with duplicates, a conflict, an invalid and
// a refused message, and checks every fate through the harness, counting applications from the team's own invoices
// table (the side effect does not use the effect journal). Exit 0 = all held.
import { ScanCommand } from "@aws-sdk/client-dynamodb";
import { startLocalCloud } from "@effectively-once/local-cloud";
import { collectInvocations, observe, publishBodies, type Application } from "@effectively-once/local-cloud/harness";
import { effectKey } from "@effectively-once/pipeline/handler";

const subscription = (n: number, amountCents = 4900) => ({ accountId: `acct-${n}`, period: "2026-11", plan: "pro", amountCents });

async function main(): Promise<void> {
  const invocations = collectInvocations();
  const cloud = await startLocalCloud({ stackFile: "cdktf.out/stacks/subscriptions/cdk.tf.json", functionLogs: invocations.functionLogs, retryVisibilityTimeoutSeconds: 1 });
  try {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [
      ...[1, 2, 3, 4].map((n) => subscription(n)),
      subscription(1), // an exact duplicate
      { amountCents: 4900, plan: "pro", period: "2026-11", accountId: "acct-2" }, // the same, fields reordered
      { accountId: "acct-5", period: "November", plan: "pro", amountCents: 4900 }, // breaks period's rule
      { ...subscription(6), plan: "cancelled" }, // refused by the side effect: quarantined `rejected`
    ]);
    await cloud.drain({ timeoutMs: 60_000 });
    sent.push(...(await publishBodies(target, [subscription(3, 9900)]))); // same key, another amount: a conflict
    await cloud.drain({ timeoutMs: 60_000 });

    // The team's own record of applications: one invoice item per billed key, with the message that billed it.
    const invoices = async (): Promise<Application[]> => {
      const { Items = [] } = await cloud.clients.dynamodb.send(new ScanCommand({ TableName: String(cloud.outputs.invoices_table_name) }));
      return Items.map((item) => ({ effectKey: effectKey(item.businessKey.S!, "bill"), messageId: item.messageId.S! }));
    };
    const fromTable = await observe(target, sent, { applications: invoices });
    await invocations.settle();
    const fromLog = await observe(target, sent, { invocations: invocations.records() });
    const reasons = fromTable.dlq.map((m) => m.reason).sort();
    const failures: string[] = [];
    for (const [source, { verification: v }] of [["invoices table", fromTable], ["invocation log", fromLog]] as const) {
      if (v.lost.length > 0) failures.push(`${source}: lost ${v.lost.join(", ")}`);
      if (v.doubleApplied.length > 0) failures.push(`${source}: billed twice ${v.doubleApplied.join(", ")}`);
      if (v.applied !== 4) failures.push(`${source}: expected 4 accounts billed, counted ${v.applied}`);
    }
    if (JSON.stringify(reasons) !== JSON.stringify(["invalid-message", "payload-mismatch", "rejected"])) failures.push(`DLQ reasons: ${reasons.join(", ")}`);
    console.log(`sent ${fromTable.verification.sent}, billed ${fromTable.verification.applied} (invoices table) / ${fromLog.verification.applied} (invocation log), DLQ: ${reasons.join(", ")}`);
    if (failures.length > 0) throw new Error(failures.join("; "));
    console.log("consumer check: every account billed once, duplicates acknowledged, the rest quarantined with its reason");
  } finally {
    await cloud.stop();
  }
}

main().catch((error: Error) => {
  console.error(`consumer check FAILED: ${error.message}`);
  process.exit(1);
});
