// Runs the synthesized stack on the package's local cloud, publishes shipments with duplicates, a conflict, an
// invalid and a refused message, and checks every fate through the package's harness. Exit 0 = all held.
import { observe, publishBodies } from "@effectively-once/local-cloud/harness";
import { startLocalCloud } from "@effectively-once/local-cloud";

const shipment = (n: number, weightGrams = 1200) => ({ carrier: "acme", trackingNumber: `T-${n}`, weightGrams, destination: "Lyon" });

async function main(): Promise<void> {
  const cloud = await startLocalCloud({ stackFile: "cdktf.out/stacks/shipments/cdk.tf.json", retryVisibilityTimeoutSeconds: 1 });
  try {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const first = [1, 2, 3, 4, 5].map((n) => shipment(n));
    const sent = await publishBodies(target, [
      ...first,
      shipment(1), // an exact duplicate
      { destination: "Lyon", weightGrams: 1200, trackingNumber: "T-2", carrier: "acme" }, // the same, fields reordered
      { carrier: "acme", trackingNumber: "T-6", weightGrams: 0, destination: "Lyon" }, // breaks weightGrams' rule
      { carrier: "acme", trackingNumber: "T-7", weightGrams: 500, destination: "Atlantis" }, // refused downstream
    ]);
    await cloud.drain({ timeoutMs: 60_000 });
    sent.push(...(await publishBodies(target, [shipment(3, 9999)]))); // same key, another weight: a conflict
    await cloud.drain({ timeoutMs: 60_000 });

    const { effects, dlq, verification: v } = await observe(target, sent);
    const reasons = dlq.map((m) => m.reason).sort();
    const applied = [...effects.values()].filter((e) => e.effects.length > 0).length;
    const failures = [
      v.lost.length === 0 ? undefined : `lost: ${v.lost.join(", ")}`,
      v.doubleApplied.length === 0 ? undefined : `applied twice: ${v.doubleApplied.join(", ")}`,
      applied === 5 ? undefined : `expected 5 shipments dispatched, got ${applied}`,
      JSON.stringify(reasons) === JSON.stringify(["invalid-message", "payload-mismatch", "rejected"]) ? undefined : `DLQ reasons: ${reasons.join(", ")}`,
    ].filter((f): f is string => f !== undefined);
    console.log(`sent ${v.sent}, dispatched ${applied}, downstream calls ${v.downstreamCalls}, DLQ: ${reasons.join(", ")}`);
    if (failures.length > 0) throw new Error(failures.join("; "));
    console.log("consumer check: every shipment dispatched once, duplicates acknowledged, the rest quarantined with its reason");
  } finally {
    await cloud.stop();
  }
}

main().catch((error: Error) => {
  console.error(`consumer check FAILED: ${error.message}`);
  process.exit(1);
});
