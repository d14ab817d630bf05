// Runs the stack on the local cloud against a local stand-in of the carrier's HTTP API, publishes shipments with
// duplicates, a conflict, an invalid and a refused message, and checks every fate through the harness, counting
// applications from the carrier's own record (labels created). Exit 0 = all held.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startLocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies, type Application } from "@effectively-once/local-cloud/harness";

const shipment = (n: number, weightGrams = 1200) => ({ carrier: "acme", trackingNumber: `T-${n}`, weightGrams, destination: "Lyon" });

/** The carrier: creates one label per Idempotency-Key and answers a repeated key with the same label. */
function startCarrier() {
  const labels = new Map<string, { labelId: string; messageId: string }>();
  const created: Application[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const { messageId } = JSON.parse(body) as { messageId: string };
      let label = labels.get(key);
      if (!label) {
        label = { labelId: `label-${labels.size + 1}`, messageId };
        labels.set(key, label);
        created.push({ effectKey: key, messageId });
      }
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ labelId: label.labelId }));
    });
  });
  return new Promise<{ url: string; created: Application[]; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, created, close: () => server.close() })),
  );
}

async function main(): Promise<void> {
  const carrier = await startCarrier();
  process.env.CARRIER_URL = carrier.url;
  await import("./main.js"); // synthesizes the stack with the carrier's local address
  const cloud = await startLocalCloud({ stackFile: "cdktf.out/stacks/shipments/cdk.tf.json", retryVisibilityTimeoutSeconds: 1 });
  try {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const sent = await publishBodies(target, [
      ...[1, 2, 3, 4, 5].map((n) => shipment(n)),
      shipment(1), // an exact duplicate
      { destination: "Lyon", weightGrams: 1200, trackingNumber: "T-2", carrier: "acme" }, // the same, fields reordered
      { carrier: "acme", trackingNumber: "T-6", weightGrams: 0, destination: "Lyon" }, // breaks weightGrams' rule
      { carrier: "acme", trackingNumber: "T-7", weightGrams: 500, destination: "Atlantis" }, // refused downstream
    ]);
    await cloud.drain({ timeoutMs: 60_000 });
    sent.push(...(await publishBodies(target, [shipment(3, 9999)]))); // same key, another weight: a conflict
    await cloud.drain({ timeoutMs: 60_000 });

    const { dlq, verification: v } = await observe(target, sent, { applications: async () => carrier.created });
    const reasons = dlq.map((m) => m.reason).sort();
    const failures = [
      v.lost.length === 0 ? undefined : `lost: ${v.lost.join(", ")}`,
      v.doubleApplied.length === 0 ? undefined : `applied twice: ${v.doubleApplied.join(", ")}`,
      v.applied === 5 ? undefined : `expected 5 shipments dispatched, got ${v.applied}`,
      JSON.stringify(reasons) === JSON.stringify(["invalid-message", "payload-mismatch", "rejected"]) ? undefined : `DLQ reasons: ${reasons.join(", ")}`,
    ].filter((f): f is string => f !== undefined);
    console.log(`sent ${v.sent}, labels created ${v.applied}, DLQ: ${reasons.join(", ")}`);
    if (failures.length > 0) throw new Error(failures.join("; "));
    console.log("consumer check: every shipment dispatched once, duplicates acknowledged, the rest quarantined with its reason");
  } finally {
    await cloud.stop();
    carrier.close();
  }
}

main().catch((error: Error) => {
  console.error(`consumer check FAILED: ${error.message}`);
  process.exit(1);
});
