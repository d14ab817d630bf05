import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { EffectJournal, effectKey, type PipelineHandler } from "@effectively-once/pipeline/handler";
import { businessKeyText } from "@effectively-once/pipeline";
import { charge, type PaymentResult } from "../functions/charge";
import { profile } from "../profile";
import { functionEnv, lambdaContext, startLocalDynamoDb } from "./harness";

const TABLES = { idempotency: "payments-idempotency", effects: "payments-effects" };

/** A fresh copy of the deployed handler module (its own cold start), with `env` in process.env. */
function loadHandler(env: Record<string, string>): PipelineHandler<PaymentResult> {
  Object.assign(process.env, env);
  let handler: PipelineHandler<PaymentResult> | undefined;
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously: a fresh module reads this test's environment
    handler = (require("../functions/handler") as { handler: PipelineHandler<PaymentResult> }).handler;
  });
  return handler!;
}

describe("Example: payments charge", () => {
  let db: Awaited<ReturnType<typeof startLocalDynamoDb>>;
  let handler: PipelineHandler<PaymentResult>;
  const saved = { ...process.env };

  beforeAll(async () => {
    db = await startLocalDynamoDb(TABLES);
    handler = loadHandler(functionEnv(db.endpoint, TABLES));
  });

  afterAll(async () => {
    process.env = saved;
    await db?.stop();
  });

  const order = (payload: Record<string, unknown> = {}) => {
    const orderId = `o-${randomUUID().slice(0, 8)}`;
    return { businessKey: JSON.stringify(["t1", orderId]), operation: "charge", messageId: randomUUID(), payload: { tenantId: "t1", orderId, amount: 1250, currency: "EUR", ...payload } };
  };
  const itemsOf = async (businessKey: string) => {
    const { Items = [] } = await DynamoDBDocumentClient.from(db.client).send(
      new QueryCommand({ TableName: TABLES.effects, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": effectKey(businessKey, "charge") }, ConsistentRead: true }),
    );
    return { charge: Items.filter((i) => i.sk === "EFFECT"), calls: Items.filter((i) => String(i.sk).startsWith("CALL#")).map((i) => i.outcome) };
  };

  it("charges once and answers a redelivery with the stored charge", async () => {
    // Arrange
    const event = order();

    // Act
    const first = await handler(event, lambdaContext());
    const again = await handler({ ...event, messageId: randomUUID() }, lambdaContext());

    // Assert
    expect(first).toEqual({ businessKey: event.businessKey, operation: "charge", chargeId: expect.stringMatching(/^ch_/), outcome: "applied", amount: 1250, currency: "EUR" });
    expect(again).toEqual(first);
    expect(await itemsOf(event.businessKey)).toEqual({ charge: [expect.objectContaining({ chargeId: (first as PaymentResult).chargeId, amount: 1250, currency: "EUR" })], calls: ["applied"] });
  });

  it("refuses currency XXX for good (DownstreamRefusedError, quarantined rejected) and charges nothing", async () => {
    // Arrange
    const event = order({ currency: "XXX" });

    // Act
    const attempt = handler(event, lambdaContext());

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "PipelineRejected", message: expect.stringMatching(/^DownstreamRefusedError: downstream refuses charges in XXX/) });
    expect(await itemsOf(event.businessKey)).toEqual({ charge: [], calls: ["refused"] });
  });

  it.each([
    ["amount", { amount: 1300 }],
    ["currency", { currency: "USD" }],
  ])("conflicts on another %s under a charged key (the journal's DownstreamConflictError), keeping the charge", async (_field, change) => {
    // Arrange: the side effect alone, as when Powertools no longer remembers the key.
    const journal = new EffectJournal({ documentClient: DynamoDBDocumentClient.from(db.client), tableName: TABLES.effects, retentionSeconds: 3600 });
    const context = { lambda: lambdaContext(), resources: journal, note: () => undefined };
    const event = order();
    await charge({ ...event, payloadHash: "hash-of-the-first" }, context);

    // Act
    const attempt = charge({ ...event, messageId: randomUUID(), payload: { ...event.payload, ...change }, payloadHash: "hash-of-the-change" }, context);

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "DownstreamConflictError", message: expect.stringMatching(/holds .*"amount":1250/) });
    expect(await itemsOf(event.businessKey)).toEqual({ charge: [expect.objectContaining({ amount: 1250, currency: "EUR" })], calls: expect.arrayContaining(["applied", "conflict"]) });
  });

  it("gives the profile's three bodies their fates: applied, payload-mismatch, rejected", async () => {
    // Arrange
    const eventOf = (body: Record<string, unknown>) => ({ businessKey: businessKeyText([body.tenantId, body.orderId]), operation: "charge", messageId: randomUUID(), payload: body });
    const body = profile.unique(3, `run-${randomUUID().slice(0, 8)}`, () => 0.25);

    // Act
    const applied = await handler(eventOf(body), lambdaContext());
    const conflict = handler(eventOf(profile.conflict(body)), lambdaContext());
    const rejected = handler(eventOf(profile.rejected!(3, "run-x")), lambdaContext());

    // Assert
    expect(applied).toMatchObject({ outcome: "applied", amount: body.amount });
    await expect(conflict).rejects.toHaveProperty("name", "IdempotencyValidationError");
    await expect(rejected).rejects.toMatchObject({ name: "PipelineRejected", cause: expect.objectContaining({ name: "DownstreamRefusedError" }) });
  });
});
