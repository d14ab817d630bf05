/**
 * One invocation per batch, the function's side (functions/src/batch.ts): a batch event through the real handler on
 * the real Powertools persistence layer (dynalite). Each record is run as a single-record invocation would run it,
 * under the same second-layer record id, and answered on its own.
 */
import { createPipelineHandler } from "../src";
import { Logger } from "@aws-lambda-powertools/logger";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { type Deposit, depositEnv, depositEvent, redelivery } from "./support/deposit";
import { readIdempotencyRecords } from "./support/effects";
import { beforeCommand } from "./support/intercept";
import { lambdaContext } from "./support/lambda-context";
import { depositTables } from "./support/deposit-tables";

const TABLES = { idempotency: "batch-idempotency", effects: "batch-effects" };

describe("Function: createPipelineHandler with a batch event (real Powertools, dynalite)", () => {
  const { db, newInstance, effectsOf, recordOf } = depositTables(TABLES);

  it("applies each record once, under the record id a single-record invocation uses, and answers each in order", async () => {
    // Arrange
    const { handler, functionName } = newInstance();
    const records = [depositEvent(), depositEvent(), depositEvent()];

    // Act
    const answer = await handler({ records }, lambdaContext(functionName));

    // Assert
    expect(answer).toEqual({ outcomes: records.map((r) => ({ messageId: r.messageId, outcome: "applied" })) });
    for (const record of records) {
      expect(await recordOf(record.businessKey)).toMatchObject({ status: "COMPLETED" });
      expect((await effectsOf(record.businessKey)).effects).toHaveLength(1);
    }
  });

  it("takes a record's body as text (the workflow's batch form): the same record and validation hash as the parsed payload", async () => {
    // Arrange: one key sent in the single form first, then as text in a batch (a duplicate), and a fresh text record.
    const { handler, functionName } = newInstance();
    const single = depositEvent();
    await handler(single, lambdaContext(functionName));
    const asText = ({ payload, ...rest }: ReturnType<typeof depositEvent>) => ({ ...rest, body: JSON.stringify({ amount: payload.amount, ref: payload.ref, accountId: payload.accountId }) });
    const fresh = depositEvent();
    const notJson = { ...asText(depositEvent()), body: "{not json" };

    // Act
    const answer = await handler({ records: [asText(redelivery(single)), asText(fresh), notJson] }, lambdaContext(functionName));

    // Assert
    expect(answer.outcomes.map((o) => o.outcome)).toEqual(["duplicate", "applied", "rejected"]);
    expect(answer.outcomes[2]).toMatchObject({ error: "PipelineRejected", detail: expect.stringContaining("payload") });
    expect(await recordOf(fresh.businessKey)).toMatchObject({ status: "COMPLETED" });
    expect((await effectsOf(single.businessKey)).calls).toHaveLength(1);
  });

  it("answers each record's own fate; one record's failure reaches no other record", async () => {
    // Arrange: an applied key delivered again, a refused amount, a conflict, a malformed record, a transient failure.
    const { handler, functionName, effectsClient } = newInstance();
    const applied = depositEvent();
    const conflicting = depositEvent();
    await handler(applied, lambdaContext(functionName));
    await handler(conflicting, lambdaContext(functionName));
    const flaky = depositEvent();
    beforeCommand(effectsClient, "PutItemCommand", (input) => {
      if (JSON.stringify(input).includes(flaky.payload.ref)) throw new Error("downstream unavailable");
    });
    const fresh = depositEvent();
    const refused = depositEvent({ payload: { accountId: "acc-1", ref: "r-13", amount: 13 } });
    const malformed = { ...depositEvent(), payload: "not an object" };
    const records = [fresh, redelivery(applied), refused, redelivery(conflicting, { amount: 1 }), malformed, flaky];

    // Act
    const answer = await handler({ records } as never, lambdaContext(functionName));

    // Assert
    expect(answer).toEqual({
      outcomes: [
        { messageId: fresh.messageId, outcome: "applied" },
        { messageId: records[1]!.messageId, outcome: "duplicate" },
        { messageId: refused.messageId, outcome: "rejected", error: "PipelineRejected", detail: expect.stringContaining("13 is refused") },
        { messageId: records[3]!.messageId, outcome: "conflict", error: "IdempotencyValidationError", detail: expect.any(String) },
        { messageId: malformed.messageId, outcome: "rejected", error: "PipelineRejected", detail: expect.stringContaining("payload") },
        { messageId: flaky.messageId, outcome: "retry", error: "Error", detail: "downstream unavailable" },
      ],
    });
    expect((await effectsOf(fresh.businessKey)).effects).toHaveLength(1);
    expect((await effectsOf(applied.businessKey)).calls).toHaveLength(1);
    expect((await effectsOf(conflicting.businessKey)).calls).toHaveLength(1);
    // The transient failure left no record behind, so its retry runs the effect.
    expect(await recordOf(flaky.businessKey)).toBeUndefined();
  });

  it("recognises the records a crashed batch applied when they come again, one by one or in a batch", async () => {
    // Arrange: a batch whose third record fails after the first two were applied (as when the invocation dies there).
    const { handler, functionName, effectsClient } = newInstance();
    const records = [depositEvent(), depositEvent(), depositEvent()];
    const stop = beforeCommand(effectsClient, "PutItemCommand", (input) => {
      if (JSON.stringify(input).includes(records[2]!.payload.ref)) throw new Error("crashed here");
    });
    await handler({ records }, lambdaContext(functionName));
    stop();

    // Act: the workflow's fallback sends each record alone; a later batch sends them together.
    const single = await handler(redelivery(records[0]!), lambdaContext(functionName));
    const again = await handler({ records: records.map((r) => redelivery(r)) }, lambdaContext(functionName));

    // Assert
    expect(single).toMatchObject({ outcome: "applied" });
    expect(again.outcomes.map((o) => o.outcome)).toEqual(["duplicate", "duplicate", "applied"]);
    for (const record of records) expect((await effectsOf(record.businessKey)).effects).toHaveLength(1);
  });

  /** A handler whose side effect counts the records in flight and, when `barrier` is set, waits until that many started. */
  const countingHandler = (concurrency: string, barrier?: number) => {
    const state = { inFlight: 0, most: 0, started: 0, seen: [] as unknown[] };
    let release: () => void = () => undefined;
    const allStarted = new Promise<void>((resolve) => (release = resolve));
    const client = new DynamoDBClient({ endpoint: db().endpoint, region: "us-east-1", credentials: { accessKeyId: "local", secretAccessKey: "local" } });
    const handler = createPipelineHandler<Deposit, { ok: true }>(
      {
        sideEffect: async (event) => {
          state.seen.push(event);
          state.inFlight++;
          state.started++;
          state.most = Math.max(state.most, state.inFlight);
          if (barrier !== undefined && state.started === barrier) release();
          if (barrier !== undefined) await allStarted;
          // Real I/O inside the effect, so that records overlap whenever the bound lets them.
          await readIdempotencyRecords(client, TABLES.idempotency);
          state.inFlight--;
          return { ok: true };
        },
      },
      { env: { ...depositEnv(db().endpoint, TABLES), PIPELINE_BATCH_CONCURRENCY: concurrency }, dynamoDb: client, logger: new Logger({ logLevel: "SILENT" }) },
    );
    return { handler, state, destroy: () => client.destroy() };
  };

  it("works on the records of a batch at once (all five meet before any ends), handing the side effect one record each", async () => {
    // Arrange
    const { handler, state, destroy } = countingHandler("10", 5);
    const records = Array.from({ length: 5 }, () => depositEvent());

    // Act
    const answer = await handler({ records }, lambdaContext("batch-concurrent"));
    destroy();

    // Assert
    expect(answer.outcomes.map((o) => o.outcome)).toEqual(Array(5).fill("applied"));
    expect(state.most).toBe(5);
    expect(state.seen.map((event) => (event as { messageId: string }).messageId).sort()).toEqual(records.map((r) => r.messageId).sort());
    expect(state.seen.every((event) => !("records" in (event as object)))).toBe(true);
  });

  it("works on one record at a time when PIPELINE_BATCH_CONCURRENCY is 1", async () => {
    // Arrange
    const { handler, state, destroy } = countingHandler("1");
    const records = Array.from({ length: 4 }, () => depositEvent());

    // Act
    const answer = await handler({ records }, lambdaContext("batch-sequential"));
    destroy();

    // Assert
    expect(answer.outcomes.map((o) => o.outcome)).toEqual(Array(4).fill("applied"));
    expect(state.most).toBe(1);
  });

  it("still takes the single-record event and returns the side effect's result (the old workflow's call)", async () => {
    // Arrange
    const { handler, functionName } = newInstance();
    const event = depositEvent();

    // Act
    const result = await handler(event, lambdaContext(functionName));

    // Assert
    expect(result).toMatchObject({ outcome: "applied", amount: 1250 });
    await expect(handler({ ...depositEvent(), payload: { accountId: "acc-1", ref: "r-13", amount: 13 } }, lambdaContext(functionName))).rejects.toMatchObject({ name: "PipelineRejected" });
  });
});
