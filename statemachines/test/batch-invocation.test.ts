/**
 * One invocation per batch (statemachines/src/batch.ts) on the interpreter, the ledger on dynalite: which records are sent, how
 * each answer ends its own record, and the per-record fallback when the batch invocation gives no usable answer.
 * Whether a claim was completed or released is read from what the ledger does next: a completed key's copy is a
 * duplicate (no invocation), a released key is claimed and invoked again.
 */
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { recordOutcomes } from "@effectively-once/local-cloud/emulators";
import { BATCH_RECORD_FIELDS } from "@effectively-once/contract";
import { sqsRecord as record, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

type BatchRecord = { messageId: string; businessKey: string; body: string; operation: string; firstSentAt: number; receiveCount: number };

/** The function's script: how it answers a batch, how it answers one record. */
interface Script {
  batch: (records: BatchRecord[]) => { Payload?: unknown; FunctionError?: string };
  single: (event: { messageId: string; payload: Record<string, unknown> }) => { Payload?: unknown; FunctionError?: string };
}

const applyAll: Script["batch"] = (records) => ({ Payload: { outcomes: records.map((r) => ({ messageId: r.messageId, outcome: "applied" })) } });
const applyOne: Script["single"] = () => ({ Payload: { ok: true } });

describe("pipeline.asl.json in batch mode: one invocation per batch", () => {
  const batches: BatchRecord[][] = [];
  const singles: string[] = [];
  let script: Script = { batch: applyAll, single: applyOne };
  const lambda: LambdaInvoker = async (req) => {
    const event = JSON.parse(req.Payload);
    const answer = event.records ? (batches.push(event.records), script.batch(event.records)) : (singles.push(event.messageId), script.single(event));
    return { StatusCode: 200, ...(answer.FunctionError ? { FunctionError: answer.FunctionError } : {}), Payload: JSON.stringify(answer.Payload ?? null) };
  };
  let pipeline: PipelineMachine;
  const run = async (records: unknown[]) => {
    const execution = await pipeline.machine.execute(records);
    expect(execution.status).toBe("SUCCEEDED");
    return (execution.output as { batchItemFailures: { itemIdentifier: string }[] }).batchItemFailures.map((f) => f.itemIdentifier);
  };
  const quarantined = () => pipeline.quarantined.map((input) => [input.MessageAttributes?.originalMessageId?.StringValue, input.MessageAttributes?.reason?.StringValue]);
  let n = 0;
  const body = (amount = 10) => JSON.stringify({ tenantId: "batch", orderId: `o${++n}`, amount, currency: "EUR" });
  /** Whether the key of `text` is completed: a copy of it is then acknowledged without any invocation. */
  const completed = async (text: string) => {
    const before = batches.length + singles.length;
    script = { batch: applyAll, single: applyOne };
    await run([record(`check-${++n}`, text)]);
    return batches.length + singles.length === before;
  };

  beforeAll(async () => {
    pipeline = await startPipelineMachine(lambda, { lambdaRetries: 0, batchInvocation: true });
  });
  afterAll(() => pipeline.stop());
  beforeEach(() => {
    batches.length = 0;
    singles.length = 0;
    pipeline.quarantined.length = 0;
    script = { batch: applyAll, single: applyOne };
  });

  it("invokes once with the claimed records only, each body as text, and completes each on its own claim", async () => {
    // Arrange: two new keys, an invalid body, an in-batch copy, and a key completed before.
    const [a, b, done] = [body(), body(), body()];
    await run([record("done", done)]);
    batches.length = 0;

    // Act
    const failures = await run([record("a", a), record("bad", "{nope"), record("b", b), record("a-copy", a), record("done-again", done)]);

    // Assert
    expect(failures).toEqual([]);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.map((r) => [r.messageId, r.body, r.operation])).toEqual([["a", a, "charge"], ["b", b, "charge"]]);
    // Exactly the contract's fields (the function's batch record), the body as the text the pipe delivered.
    expect(Object.keys(batches[0]![0]!).sort()).toEqual([...BATCH_RECORD_FIELDS].sort());
    expect(singles).toEqual([]);
    expect(quarantined()).toEqual([["bad", "invalid-message"]]);
    expect(await completed(a)).toBe(true);
    expect(await completed(b)).toBe(true);
  });

  it("invokes nothing when nothing is claimed", async () => {
    // Arrange
    const done = body();
    await run([record("first", done)]);
    batches.length = 0;

    // Act
    const failures = await run([record("bad", "{nope"), record("again", done)]);

    // Assert
    expect(failures).toEqual([]);
    expect(batches).toEqual([]);
    expect(singles).toEqual([]);
  });

  it("ends each record by its own answer: a failure sends no other record to the DLQ or back to the queue", async () => {
    // Arrange
    const texts = [body(), body(), body(), body(), body()];
    script.batch = () => ({
      Payload: {
        outcomes: [
          { messageId: "ok", outcome: "applied" },
          { messageId: "dup", outcome: "duplicate" },
          { messageId: "refused", outcome: "rejected", error: "ValidationError", detail: "amount: too large" },
          { messageId: "conflict", outcome: "conflict", error: "IdempotencyValidationError", detail: "another payload" },
          { messageId: "flaky", outcome: "retry", error: "Error", detail: "downstream 503" },
        ],
      },
    });

    // Act
    const failures = await run(["ok", "dup", "refused", "conflict", "flaky"].map((id, i) => record(id, texts[i]!)));

    // Assert
    expect(failures).toEqual(["flaky"]);
    expect(quarantined().sort()).toEqual([["conflict", "payload-mismatch"], ["refused", "rejected"]]);
    expect(pipeline.quarantined.find((q) => q.MessageAttributes?.originalMessageId?.StringValue === "refused")?.MessageAttributes?.detail?.StringValue).toBe("ValidationError: amount: too large");
    expect(singles).toEqual([]);
    expect(await completed(texts[0]!)).toBe(true);
    expect(await completed(texts[1]!)).toBe(true);
    // Released: the next copy claims the key again and is invoked.
    expect(await completed(texts[2]!)).toBe(false);
    expect(await completed(texts[4]!)).toBe(false);
  });

  it.each<[string, Script["batch"]]>([
    ["crashes", () => ({ FunctionError: "Unhandled", Payload: { errorType: "Runtime.ExitError", errorMessage: "exited" } })],
    ["is refused as a whole (a function that knows no batches)", () => ({ FunctionError: "Unhandled", Payload: { errorType: "PipelineRejected", errorMessage: "businessKey: expected text" } })],
    ["answers no outcome list", () => ({ Payload: { ok: true } })],
  ])("invokes each claimed record alone when the batch invocation %s", async (_, batch) => {
    // Arrange
    const [a, b] = [body(), body()];
    script.batch = batch;

    // Act
    const failures = await run([record("a", a), record("b", b)]);

    // Assert
    expect(failures).toEqual([]);
    expect(singles.sort()).toEqual(["a", "b"]);
    expect(quarantined()).toEqual([]);
    expect(await completed(a)).toBe(true);
    expect(await completed(b)).toBe(true);
  });

  it("invokes alone only the records the answer left out or named twice, and completes each only on its own answer", async () => {
    // Arrange: the answer leaves b out, answers c after a stranger, and names d twice.
    const [a, b, c, d] = [body(), body(), body(), body()];
    script.batch = () => ({
      Payload: {
        outcomes: [
          { messageId: "a", outcome: "applied" },
          { messageId: "zz", outcome: "applied" },
          { messageId: "c", outcome: "applied" },
          { messageId: "d", outcome: "applied" },
          { messageId: "d", outcome: "retry", error: "Error" },
        ],
      },
    });
    script.single = (event) => (event.messageId === "b" ? { FunctionError: "Unhandled", Payload: { errorType: "Error", errorMessage: "still down" } } : { Payload: { ok: true } });

    // Act
    const failures = await run([record("a", a), record("b", b), record("c", c), record("d", d)]);

    // Assert: a and c complete on their answers; b and d had no answer of their own, so each ran alone; b failed alone.
    expect(singles.sort()).toEqual(["b", "d"]);
    expect(failures).toEqual(["b"]);
    expect(await completed(a)).toBe(true);
    expect(await completed(b)).toBe(false);
    expect(await completed(c)).toBe(true);
    expect(await completed(d)).toBe(true);
  });

  it("reports every record's fate once in its states' outputs (as the local cloud counts them), a record decided in the claim phase too", async () => {
    // Arrange: a key completed before, then a batch with a new key, its in-batch copy, the completed key's copy and an invalid body.
    const [fresh, done] = [body(), body()];
    await run([record("done", done)]);

    // Act
    const execution = await pipeline.machine.execute([record("new", fresh), record("new-copy", fresh), record("dup", done), record("bad", "{nope")]);

    // Assert: one fate per record, though the claim phase's outcomes pass through the settle phase.
    const fates = recordOutcomes(execution.events, 0).map((e) => `${e.messageId}:${e.outcome}`);
    expect(fates.sort()).toEqual(["bad:quarantined", "dup:duplicate", "new-copy:duplicate", "new:processed"]);
  });
});
