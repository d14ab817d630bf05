import { PutItemCommand, ScanCommand, type AttributeValue } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "@effectively-once/local-cloud";
import { DEFAULT_ASSUMPTIONS } from "../../src/cost/assumptions";
import { DESIGN_PATHS, Path, callCounts } from "../../src/cost/paths";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { waitFor } from "@effectively-once/testing";
import { businessKeyText } from "@effectively-once/contract";
import { dynamoItemBytes } from "../../src/cost/item-size";

/**
 * The model's per-path DynamoDB calls, counted on the wire: the local cloud runs the synthesized stack (the real
 * state machine on the interpreter, the real bundled function with Powertools) and every DynamoDB request of the
 * workflow and of the function passes the fault proxy, where a rule that never fires records it.
 */

interface Seen {
  readonly operation: string;
  readonly tables: readonly string[];
  readonly fromFunction: boolean;
}

function add(into: Record<string, number>, from: Record<string, number>, times: number): Record<string, number> {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n * times;
  return into;
}

describe("Per-path DynamoDB calls: model vs the local cloud", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  const seen: Seen[] = [];
  const functionLines: string[] = [];
  let roles: Record<string, string>;
  // One invocation per batch (standard mode's default): how many the new keys took depends on how the pipe batched them.
  let newKeyInvocations = 0;

  beforeAll(async () => {
    // The model is the steady state: during the upgrade's transition from release 0.2 (one retention, docs/upgrading.md)
    // the function also reads the key's record of the old id form, one more consistent GetItem per invocation.
    stack = synthStack({ maximumBatchingWindowSeconds: 0, function: { legacyIdempotencyKeyPrefix: false } });
    cloud = await startLocalCloud({
      stackFile: join(stack.stackDir, "cdk.tf.json"),
      faults: {
        seed: "cost-call-counter",
        rules: [
          {
            service: "dynamodb",
            id: "call-counter",
            action: "error",
            // A matcher that records the request and never matches: the proxy forwards everything untouched.
            match: { where: (r) => (seen.push({ operation: r.operation, tables: r.tables, fromFunction: r.caller !== undefined }), false) },
          },
        ],
      },
      functionLogs: (line, meta) => {
        if (meta.stream === "stdout" && line.startsWith("{")) functionLines.push(line);
      },
    });
    const o = cloud.outputs;
    roles = { [String(o.ledger_table_name)]: "ledger", [String(o.idempotency_table_name)]: "idempotency", [String(o.effects_table_name)]: "effects" };
  }, 60_000);

  afterAll(async () => {
    await cloud?.stop();
    stack?.cleanup();
  });

  /** Calls seen since `from`, as "table Operation" counts (the keys of the model's `callCounts`). */
  function countsSince(from: number): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const s of seen.slice(from)) {
      const key = `${roles[s.tables[0]] ?? s.tables[0]} ${s.operation}`;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  }

  const publish = (body: string) => cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: String(cloud.outputs.queue_url), MessageBody: body }));
  const order = (orderId: string, amount = 1250) => JSON.stringify({ tenantId: "cost", orderId, amount, currency: "EUR" });
  const outcomes = () => cloud.stats().outcomes;
  const invocations = () => Object.values(cloud.stats().functions).reduce((sum, f) => sum + f.invocations, 0);

  it("new keys: claim, Powertools put, EFFECT and CALL puts, Powertools update, complete (6 writes, no reads)", async () => {
    // Arrange
    const from = seen.length;
    // Act
    for (const id of ["o-1", "o-2", "o-3", "o-4"]) await publish(order(id));
    await waitFor(() => outcomes().processed === 4, { timeoutMs: 20_000, message: "4 new keys processed" });
    // Assert
    expect(countsSince(from)).toEqual(add({}, callCounts(DESIGN_PATHS[Path.NewKey]), 4));
    expect(countsSince(from)).toEqual({ "ledger PutItem": 4, "idempotency PutItem": 4, "effects PutItem": 8, "idempotency UpdateItem": 4, "ledger UpdateItem": 4 });
    expect(seen.slice(from).filter((s) => s.fromFunction)).toHaveLength(4 * 4);
    newKeyInvocations = invocations();
    expect(newKeyInvocations).toBeGreaterThanOrEqual(1);
    expect(newKeyInvocations).toBeLessThanOrEqual(4);
  });

  it("stores items no larger than the model assumes (ledger, Powertools record, EFFECT and CALL items)", async () => {
    const largest = async (table: unknown, filter: (item: Record<string, AttributeValue>) => boolean = () => true) => {
      const { Items = [] } = await cloud.clients.dynamodb.send(new ScanCommand({ TableName: String(table) }));
      return Math.max(...Items.filter(filter).map(dynamoItemBytes));
    };
    const o = cloud.outputs;
    const a = DEFAULT_ASSUMPTIONS;
    expect(await largest(o.ledger_table_name)).toBeLessThanOrEqual(a.ledgerItemBytes);
    expect(await largest(o.idempotency_table_name)).toBeLessThanOrEqual(a.idempotencyItemBytes);
    expect(await largest(o.effects_table_name, (i) => i.sk.S === "EFFECT")).toBeLessThanOrEqual(a.chargeItemBytes);
    expect(await largest(o.effects_table_name, (i) => i.sk.S !== "EFFECT")).toBeLessThanOrEqual(a.callItemBytes);
    // And not far below either: the model would overstate storage.
    expect(await largest(o.idempotency_table_name)).toBeGreaterThan(a.idempotencyItemBytes * 0.7);
  });

  it("logs what the model assumes per batch invocation: one INFO summary line with an entry per applied key, plus the fate metrics it carries", () => {
    const a = DEFAULT_ASSUMPTIONS;
    expect(functionLines).toHaveLength(newKeyInvocations * a.functionInfoLines);
    const entries = functionLines.map((l) => (JSON.parse(l) as { records: readonly unknown[] }).records.length);
    expect(entries.reduce((sum, n) => sum + n, 0)).toBe(4);
    const measured = functionLines.reduce((sum, l) => sum + Buffer.byteLength(l), 0);
    // The line carries the fate metrics (EMF) at INFO: the model prices them as their own line of cost.
    const assumed = entries.reduce((sum, n) => sum + a.batchLogLineBytes + a.functionMetricBytes + n * (a.batchLogRecordBytes + a.batchMetricRecordBytes), 0);
    // Local ids and names have the lengths AWS's have; allow for the longer business keys the model assumes.
    expect(Math.abs(measured - assumed) / assumed).toBeLessThan(0.15);
  });

  it("duplicates, a payload mismatch and an unparseable body: failed claim + inspect, DLQ sends, no Lambda", async () => {
    // Arrange
    const from = seen.length;
    // Act
    await publish(order("o-1"));
    await publish(order("o-2"));
    await publish(order("o-3", 999)); // same key, other amount
    await publish("{not json");
    await waitFor(() => outcomes().duplicate === 2 && outcomes().quarantined === 2, { timeoutMs: 20_000, message: "2 duplicates and 2 quarantines" });
    // Assert
    const expected = add(add(add({}, callCounts(DESIGN_PATHS[Path.Duplicate]), 2), callCounts(DESIGN_PATHS[Path.Quarantine]), 1), callCounts(DESIGN_PATHS[Path.Invalid]), 1);
    expect(countsSince(from)).toEqual(expected);
    expect(countsSince(from)).toEqual({ "ledger PutItem": 3, "ledger GetItem": 3 });
    expect(outcomes().quarantinedByReason).toEqual({ "payload-mismatch": 1, "invalid-message": 1 });
    const { Attributes } = await cloud.clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: String(cloud.outputs.dlq_url), AttributeNames: ["ApproximateNumberOfMessages"] }));
    expect(Number(Attributes?.ApproximateNumberOfMessages)).toBe(DESIGN_PATHS[Path.Quarantine].dlqSends + DESIGN_PATHS[Path.Invalid].dlqSends);
    expect(invocations()).toBe(newKeyInvocations);
  });

  it("a key held by an in-flight message: failed claim + inspect, then retry (the record stays on the queue)", async () => {
    // Arrange: a live IN_PROGRESS claim written behind the proxy's back (not counted).
    const now = Math.floor(Date.now() / 1000);
    await cloud.clients.dynamodb.send(
      new PutItemCommand({
        TableName: String(cloud.outputs.ledger_table_name),
        Item: {
          pk: { S: businessKeyText(["cost", "o-held"]) },
          sk: { S: String(cloud.outputs.operation) },
          status: { S: "IN_PROGRESS" },
          owner: { S: "another-message" },
          claimId: { S: "another-claim" },
          payloadHash: { S: "x" },
          leaseExpiresAt: { N: String(now + 600) },
          expiresAt: { N: String(now + 86400) },
        },
      }),
    );
    const from = seen.length;
    // Act
    await publish(order("o-held"));
    await waitFor(() => outcomes().retry === 1, { timeoutMs: 20_000, message: "1 retry" });
    // Assert
    expect(countsSince(from)).toEqual(callCounts(DESIGN_PATHS[Path.Retry]));
    expect(DESIGN_PATHS[Path.Retry].acknowledged).toBe(false);
    expect(invocations()).toBe(newKeyInvocations);
  });
});
