import { randomUUID } from "node:crypto";
import { DynamoDBDocumentClient, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { createPipelineHandler, effectKey, type PipelineHandler } from "@effectively-once/pipeline/handler";
import { businessKeyText } from "@effectively-once/pipeline";
import { issueFunction, type IssuedInvoice } from "../functions/issue";
import { profile } from "../profile";
import { functionEnv, lambdaContext, startLocalDynamoDb } from "./harness";

const TABLES = { idempotency: "invoices-idempotency", effects: "invoices-effects" };

describe("Example: invoices issue", () => {
  let db: Awaited<ReturnType<typeof startLocalDynamoDb>>;
  let handler: PipelineHandler<IssuedInvoice>;

  beforeAll(async () => {
    db = await startLocalDynamoDb(TABLES);
    handler = createPipelineHandler(issueFunction, { env: functionEnv(db.endpoint, TABLES), dynamoDb: db.client });
  });

  afterAll(async () => {
    await db?.stop();
  });

  /** The event the state machine would pass for a body. */
  const eventOf = (body: Record<string, unknown>) => ({
    businessKey: businessKeyText([body.customerId, body.invoiceNumber]),
    operation: "issue",
    messageId: randomUUID(),
    payload: body,
  });
  const invoice = (overrides: Record<string, unknown> = {}) => ({
    customerId: "c-1",
    invoiceNumber: `INV-${Math.floor(Math.random() * 1e12)}`,
    lines: [
      { sku: "sku-1", quantity: 2, unitPrice: 1250 },
      { sku: "sku-2", quantity: 1, unitPrice: 499 },
    ],
    currency: "EUR",
    dueDate: "2099-01-31",
    ...overrides,
  });
  const itemsOf = async (businessKey: string) => {
    const { Items = [] } = await DynamoDBDocumentClient.from(db.client).send(
      new QueryCommand({ TableName: TABLES.effects, KeyConditionExpression: "pk = :pk", ExpressionAttributeValues: { ":pk": effectKey(businessKey, "issue") }, ConsistentRead: true }),
    );
    return { invoices: Items.filter((i) => i.sk === "EFFECT"), calls: Items.filter((i) => String(i.sk).startsWith("CALL#")).map((i) => i.outcome) };
  };

  it("issues once with the total of its lines, and a redelivery gets the stored invoice", async () => {
    // Arrange
    const event = eventOf(invoice());

    // Act
    const first = await handler(event, lambdaContext());
    const again = await handler({ ...event, messageId: randomUUID() }, lambdaContext());

    // Assert
    expect(first).toEqual({ invoiceId: expect.stringMatching(/^inv_/), outcome: "applied", total: 2999, currency: "EUR", dueDate: "2099-01-31" });
    expect(again).toEqual(first);
    expect(await itemsOf(event.businessKey)).toEqual({ invoices: [expect.objectContaining({ invoiceId: (first as IssuedInvoice).invoiceId, total: 2999, lineCount: 2 })], calls: ["applied"] });
  });

  it("refuses a due date in the past for good (DownstreamRefusedError, quarantined rejected) and issues nothing", async () => {
    // Arrange
    const event = eventOf(invoice({ dueDate: "2020-02-29" }));

    // Act
    const attempt = handler(event, lambdaContext());

    // Assert
    await expect(attempt).rejects.toMatchObject({ name: "PipelineRejected", message: expect.stringMatching(/^DownstreamRefusedError: billing refuses invoices due in the past: dueDate 2020-02-29 is before \d{4}-/) });
    expect(await itemsOf(event.businessKey)).toEqual({ invoices: [], calls: ["refused"] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no lines", { lines: [] }, "payload.lines"],
    ["a line without sku", { lines: [{ quantity: 1, unitPrice: 1 }] }, "payload.lines[0].sku"],
    ["a fractional quantity", { lines: [{ sku: "a", quantity: 1.5, unitPrice: 1 }] }, "payload.lines[0].quantity"],
    ["a negative price", { lines: [{ sku: "a", quantity: 1, unitPrice: 1 }, { sku: "b", quantity: 1, unitPrice: -1 }] }, "payload.lines[1].unitPrice"],
    ["a month that is not on the calendar", { dueDate: "2099-13-01" }, "payload.dueDate"],
    ["a day that is not on the calendar", { dueDate: "2099-02-30" }, "payload.dueDate"],
  ])("rejects %s with ValidationError naming the field", async (_case, change, field) => {
    // Act / Assert
    await expect(handler(eventOf(invoice(change)), lambdaContext())).rejects.toMatchObject({ name: "PipelineRejected", cause: expect.objectContaining({ name: "ValidationError", field }) });
  });

  it("conflicts on other lines under an issued invoice number, and the profile's three bodies get their fates", async () => {
    // Arrange
    const body = profile.unique(7, `run-${randomUUID().slice(0, 8)}`, () => 0.5);
    const issued = await handler(eventOf(body), lambdaContext());

    // Act
    const conflict = handler(eventOf(profile.conflict(body)), lambdaContext());
    const rejected = handler(eventOf(profile.rejected!(7, "run-x")), lambdaContext());

    // Assert: Powertools still remembers the key, so the conflict is its IdempotencyValidationError.
    expect(issued).toMatchObject({ outcome: "applied" });
    await expect(conflict).rejects.toHaveProperty("name", "IdempotencyValidationError");
    await expect(rejected).rejects.toMatchObject({ name: "PipelineRejected", cause: expect.objectContaining({ name: "DownstreamRefusedError" }) });
  });
});
