/**
 * A side effect that changes the event it receives (Powertools 2.35 hashes that very object again when it completes
 * or deletes the record): through the real handler on the real Powertools persistence layer (dynalite), the record of
 * the event's own key is the one completed or deleted, with the validation hash of the event's own payload.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { createPipelineHandler } from "../src";
import { idempotencyRecordId } from "../src/idempotency";
import type { Dynalite } from "@effectively-once/testing";
import { type Deposit, depositEnv, depositEvent, FUNCTION_NAME, redelivery } from "./support/deposit";
import { readIdempotencyRecords } from "./support/effects";
import { lambdaContext } from "./support/lambda-context";
import { startDepositDynalite } from "./support/tables";

const TABLES = { idempotency: "mutating-idempotency", effects: "mutating-effects" };

/** The event as a side effect may treat it at run time: the type says readonly, JavaScript does not enforce it. */
type Mutable = { businessKey: string; operation: string; payloadHash: string; payload: Record<string, unknown> };

/** Each change a side effect might make to its input, the way a normalising or careless one would. */
const MUTATIONS: ReadonlyArray<[string, (event: Mutable) => void]> = [
  ["businessKey", (event) => { event.businessKey = `${event.businessKey}-changed`; }],
  ["operation", (event) => { event.operation = "refund"; }],
  ["payloadHash", (event) => { event.payloadHash = "0".repeat(64); }],
  ["the payload", (event) => { event.payload.amount = 1; event.payload.accountId = "someone-else"; }],
  ["everything at once", (event) => {
    event.businessKey = "[]";
    event.operation = "other";
    event.payloadHash = "f".repeat(64);
    event.payload.amount = 7;
  }],
];

describe("Function: createPipelineHandler with a side effect that changes its input (real Powertools, dynalite)", () => {
  let db: Dynalite;
  let mutate: (event: Mutable) => void = () => undefined;
  let fail = false;
  let runs = 0;
  const handler = () =>
    createPipelineHandler<Deposit, { applied: number }>(
      {
        sideEffect: async (event) => {
          runs += 1;
          mutate(event as unknown as Mutable);
          if (fail) throw new Error("downstream unavailable");
          return { applied: runs };
        },
      },
      { env: depositEnv(db.endpoint, TABLES), dynamoDb: db.client, logger: new Logger({ serviceName: "mutating", logLevel: "SILENT" }) },
    );
  const records = () => readIdempotencyRecords(db.client, TABLES.idempotency);
  /** The validation hash an untouched run stores for the same payload under a key of its own. */
  const untouchedValidation = async (event: ReturnType<typeof depositEvent>) => {
    const twin = depositEvent({ payload: event.payload });
    mutate = () => undefined;
    fail = false;
    await handler()(twin, lambdaContext(FUNCTION_NAME));
    const id = idempotencyRecordId(twin.businessKey, twin.operation);
    return (await records()).find((record) => record.id === id)?.validation;
  };

  beforeAll(async () => {
    db = await startDepositDynalite(TABLES);
  });
  afterAll(async () => db?.stop());
  beforeEach(() => {
    runs = 0;
    fail = false;
  });

  it.each(MUTATIONS)("completes the event's own record with its own validation hash when the side effect changes %s", async (_, change) => {
    // Arrange
    const event = depositEvent();
    const expectedValidation = await untouchedValidation(event);
    const before = (await records()).length;
    mutate = change;

    // Act
    const result = await handler()(event, lambdaContext(FUNCTION_NAME));

    // Assert: one new record, the event's own, COMPLETED with the untouched payload's validation hash.
    const all = await records();
    expect(all).toHaveLength(before + 1);
    const own = all.find((record) => record.id === idempotencyRecordId(event.businessKey, event.operation));
    expect(own).toMatchObject({ status: "COMPLETED", validation: expectedValidation, data: result });
    // An identical copy later is a duplicate (the stored result), not a payload mismatch, and runs nothing.
    mutate = () => undefined;
    const runsBefore = runs;
    await expect(handler()(redelivery(event), lambdaContext(FUNCTION_NAME))).resolves.toEqual(result);
    expect(runs).toBe(runsBefore);
  });

  it.each(MUTATIONS)("deletes the event's own record when the side effect changes %s and then fails", async (_, change) => {
    // Arrange
    const event = depositEvent();
    const before = await records();
    mutate = change;
    fail = true;

    // Act
    const attempt = handler()(event, lambdaContext(FUNCTION_NAME));

    // Assert: nothing left behind, so the retry runs the side effect at once instead of waiting out IN_PROGRESS.
    await expect(attempt).rejects.toThrow("downstream unavailable");
    expect(await records()).toEqual(before);
    fail = false;
    mutate = () => undefined;
    await expect(handler()(redelivery(event), lambdaContext(FUNCTION_NAME))).resolves.toEqual({ applied: 2 });
  });

  it("gives every record of a batch its own copy: each record's own key is completed, whatever the effect changes", async () => {
    // Arrange: the side effect changes everything of each record it gets.
    const events = [depositEvent(), depositEvent(), depositEvent()];
    const validations = await Promise.all(events.map(untouchedValidation));
    const before = (await records()).length;
    mutate = MUTATIONS[MUTATIONS.length - 1]![1];

    // Act
    const answer = await handler()({ records: events }, lambdaContext(FUNCTION_NAME));

    // Assert: one new record per event, its own, with its own payload's validation hash; the events are untouched.
    expect(answer.outcomes.map((o) => o.outcome)).toEqual(["applied", "applied", "applied"]);
    const all = await records();
    expect(all).toHaveLength(before + events.length);
    events.forEach((event, i) => {
      const own = all.find((record) => record.id === idempotencyRecordId(event.businessKey, event.operation));
      expect(own).toMatchObject({ status: "COMPLETED", validation: validations[i] });
      expect(event.businessKey.startsWith('["acc-1"')).toBe(true);
    });
  });

  it("leaves the caller's event as it was and does not freeze what the side effect gets", async () => {
    // Arrange
    const event = depositEvent();
    const original = structuredClone(event);
    mutate = (copy) => { copy.payload.amount = 99; };

    // Act
    await handler()(event, lambdaContext(FUNCTION_NAME));

    // Assert: the change happened on the side effect's copy (it did not throw), and only there.
    expect(runs).toBe(1);
    expect(event).toEqual(original);
  });
});
