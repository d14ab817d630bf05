// Runs the FIFO stack on the local cloud against a local stand-in of the warehouse's HTTP API, publishes stock moves
// of three SKUs (the message groups) with a resend, an invalid move and one call the warehouse fails once, and checks
// through the harness that every move was applied once, each SKU's moves in send order (a withdrawal applied before
// its deposit would be refused), the resend acknowledged and the invalid move quarantined. Exit 0 = all held.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startLocalCloud } from "@effectively-once/local-cloud";
import { observe, publishBodies, type Application } from "@effectively-once/local-cloud/harness";

const move = (sku: string, moveId: string, quantity: number) => ({ sku, moveId, quantity });

/** The warehouse: one stock per SKU, one move per Idempotency-Key; refuses a move that takes the stock below zero. */
function startWarehouse(failOnce: string) {
  const seen = new Map<string, number>();
  const stock = new Map<string, number>();
  const applied: (Application & { sku: string; quantity: number })[] = [];
  let failed = false;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const key = String(req.headers["idempotency-key"] ?? "");
      const { messageId, sku, quantity } = JSON.parse(body) as { messageId: string; sku: string; quantity: number };
      if (quantity === Number(failOnce) && !failed) {
        failed = true;
        res.writeHead(503).end("busy");
        return;
      }
      if (!seen.has(key)) {
        const next = (stock.get(sku) ?? 0) + quantity;
        if (next < 0) {
          res.writeHead(409).end(`${sku} has ${stock.get(sku) ?? 0}, cannot take ${-quantity}`);
          return;
        }
        stock.set(sku, next);
        seen.set(key, next);
        applied.push({ effectKey: key, messageId, sku, quantity, appliedAt: new Date().toISOString() });
      }
      res.writeHead(201, { "content-type": "application/json" }).end(JSON.stringify({ stock: seen.get(key) }));
    });
  });
  return new Promise<{ url: string; applied: typeof applied; stock: Map<string, number>; close: () => void }>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, applied, stock, close: () => server.close() })),
  );
}

async function main(): Promise<void> {
  // The warehouse fails A-1's second move (quantity -3) once: A-1's later moves wait for its retry.
  const warehouse = await startWarehouse("-3");
  process.env.WAREHOUSE_URL = warehouse.url;
  await import("./main.js"); // synthesizes the stack with the warehouse's local address
  const cloud = await startLocalCloud({ stackFile: "cdktf.out/stacks/stock-moves/cdk.tf.json", retryVisibilityTimeoutSeconds: 1 });
  try {
    const target = { sqs: cloud.clients.sqs, dynamodb: cloud.clients.dynamodb, outputs: cloud.outputs };
    const moves = [
      move("A-1", "m1", 5),
      move("B-2", "m1", 2),
      move("A-1", "m2", -3),
      move("A-1", "m3", -2),
      move("C-3", "m1", 4),
      move("B-2", "m2", -2),
      move("A-1", "m4", 7),
      move("C-3", "m2", -4),
      move("B-2", "m2", -2), // a resend of B-2's second move
      { sku: "A-1", moveId: "m5", quantity: "lots" }, // breaks quantity's rule: quarantined, A-1 goes on
      move("A-1", "m6", -7),
    ];
    const sent = await publishBodies(target, moves, { groupOf: (body) => (JSON.parse(body) as { sku: string }).sku });
    await cloud.drain({ timeoutMs: 120_000 });

    const { dlq, verification: v } = await observe(target, sent, { applications: async () => warehouse.applied });
    const reasons = dlq.map((m) => m.reason).sort();
    const bySku = (sku: string) => warehouse.applied.filter((a) => a.sku === sku).map((a) => a.quantity).join(",");
    const failures = [
      v.lost.length === 0 ? undefined : `lost: ${v.lost.join(", ")}`,
      v.doubleApplied.length === 0 ? undefined : `applied twice: ${v.doubleApplied.join(", ")}`,
      v.outOfOrder.length === 0 ? undefined : `applied out of group order: ${v.outOfOrder.join(", ")}`,
      v.applied === 9 ? undefined : `expected 9 moves applied, got ${v.applied}`,
      bySku("A-1") === "5,-3,-2,7,-7" ? undefined : `A-1's moves applied as ${bySku("A-1")}, not 5,-3,-2,7,-7`,
      bySku("B-2") === "2,-2" && bySku("C-3") === "4,-4" ? undefined : `B-2: ${bySku("B-2")}, C-3: ${bySku("C-3")}`,
      JSON.stringify(reasons) === JSON.stringify(["invalid-message"]) ? undefined : `DLQ reasons: ${reasons.join(", ")}`,
    ].filter((f): f is string => f !== undefined);
    console.log(`sent ${v.sent}, moves applied ${v.applied}, stock ${[...warehouse.stock].map(([s, n]) => `${s}=${n}`).join(" ")}, DLQ: ${reasons.join(", ")}`);
    if (failures.length > 0) throw new Error(failures.join("; "));
    console.log("consumer check: every move applied once, each SKU's in send order across a retry, the resend acknowledged, the invalid move quarantined");
  } finally {
    await cloud.stop();
    warehouse.close();
  }
}

main().catch((error: Error) => {
  console.error(`consumer check FAILED: ${error.message}`);
  process.exit(1);
});
