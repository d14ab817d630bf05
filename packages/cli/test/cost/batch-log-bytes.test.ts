/**
 * The cost model's figures for a batch invocation's log (packages/cli/src/cost/assumptions.ts: batchLogLineBytes,
 * batchLogRecordBytes, batchMetricRecordBytes), measured on the real wrapper (createPipelineHandler, Powertools on
 * dynalite) with the payments example's domain and note: the summary line of a batch of 1 and of 10 new keys, so
 * that what each record adds and what the line costs once can be told apart.
 */
import { randomUUID } from "node:crypto";
import { createPipelineHandler, EffectJournal } from "@effectively-once/functions";
import { functionEnvironment, lambdaContext, startLocalDynamoDb, type LocalDynamoDb } from "@effectively-once/local-cloud/harness";
import { effectKey, payloadHash } from "@effectively-once/contract";
import { ORDERS_FIELD_RULES, ORDERS_KEY, ORDERS_OPERATION, ORDERS_PAYLOAD_FIELDS, orderKey } from "@effectively-once/testing";
import { DEFAULT_ASSUMPTIONS } from "../../src/cost/assumptions";

type Line = Record<string, unknown>;
const TABLES = { idempotency: "cost-batch-idempotency", effects: "cost-batch-effects" };
const DOMAIN = { businessKey: ORDERS_KEY, operation: ORDERS_OPERATION, payloadFields: ORDERS_PAYLOAD_FIELDS, fieldRules: ORDERS_FIELD_RULES };
/** What AWS adds to every Powertools line and the local run has not: the X-Ray trace id (`"xray_trace_id":"1-…-…",`). */
const AWS_TRACE_FIELD_BYTES = Buffer.byteLength(`"xray_trace_id":"1-5759e988-bd862e3fe1be46a994272793",`);

/** Bytes of `fields` inside a JSON line: their JSON without the braces, plus one comma. */
const fieldBytes = (fields: Line): number => Buffer.byteLength(JSON.stringify(fields), "utf8") - 2 + 1;

describe("Cost: a batch invocation's summary line, measured", () => {
  let db: LocalDynamoDb;
  let handler: ReturnType<typeof createPipelineHandler>;

  beforeAll(async () => {
    db = await startLocalDynamoDb(TABLES);
    const env = { ...functionEnvironment(DOMAIN, "payments", db.endpoint, TABLES), POWERTOOLS_LOG_LEVEL: "INFO" };
    handler = createPipelineHandler<{ amount: number; currency: string }, unknown, EffectJournal>(
      {
        setup: EffectJournal.fromEnvironment,
        // The payments example's charge, as far as the log goes: an effect journal entry and a note of its charge id.
        async sideEffect(event, { resources: journal, note }) {
          const receipt = await journal.apply({ effectKey: effectKey(event.businessKey, event.operation), messageId: event.messageId, fingerprint: event.payloadHash, attributes: { chargeId: `ch_${randomUUID()}` } });
          note({ outcome: receipt.outcome, chargeId: receipt.attributes.chargeId });
          return { chargeId: receipt.attributes.chargeId };
        },
      },
      { env, dynamoDb: db.client },
    );
  }, 30_000);

  afterAll(async () => {
    await db?.stop();
  });

  const order = () => {
    const payload = { tenantId: "tenant-0042", orderId: `order-${randomUUID()}`, amount: 1250, currency: "EUR" };
    // A day-old first send: a seven-digit SendToEffectMs, as the model prices it.
    return { businessKey: orderKey(payload.tenantId, payload.orderId), operation: ORDERS_OPERATION, messageId: randomUUID(), receiveCount: 1, firstSentAt: Date.now() - 86_400_000, payload, payloadHash: payloadHash(payload, ORDERS_PAYLOAD_FIELDS) };
  };
  const summaryOf = async (records: number): Promise<Line> => {
    // Every line the logger prints, as it prints it (Powertools writes INFO to stdout).
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => (lines.push(...String(chunk).split("\n").filter(Boolean)), true));
    try {
      await handler({ records: Array.from({ length: records }, order) }, lambdaContext("payments"));
    } finally {
      write.mockRestore();
    }
    expect(lines).toHaveLength(1);
    return JSON.parse(lines[0]!) as Line;
  };

  it("prices no fewer bytes than the summary line takes, once and per record, and not far above (±25 %)", async () => {
    // Act
    const one = await summaryOf(1);
    const ten = await summaryOf(10);

    // Assert: split each line into its entries, its metric values and the rest.
    const entries = (line: Line) => (line.records as Line[]).reduce((sum, entry) => sum + Buffer.byteLength(JSON.stringify(entry)) + 1, 0);
    const values = (line: Line) => fieldBytes({ Applied: line.Applied, SendToEffectMs: line.SendToEffectMs });
    const directive = (line: Line) => fieldBytes({ _aws: line._aws });
    const head = (line: Line) => Buffer.byteLength(JSON.stringify(line)) - entries(line) - values(line) - directive(line) + AWS_TRACE_FIELD_BYTES;
    const measured = {
      batchLogLineBytes: head(ten),
      batchLogRecordBytes: entries(ten) / 10,
      batchMetricRecordBytes: (values(ten) - values(one)) / 9,
      functionMetricBytes: directive(ten) + values(one),
    };
    for (const [name, bytes] of Object.entries(measured)) {
      const assumed = DEFAULT_ASSUMPTIONS[name as keyof typeof measured];
      expect({ name, assumed, measured: bytes, floor: assumed >= bytes }).toEqual({ name, assumed, measured: bytes, floor: true });
      expect({ name, near: assumed <= bytes * 1.25 }).toEqual({ name, near: true });
    }
  });
});
