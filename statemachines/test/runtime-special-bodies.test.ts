import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { sqsRecord as record, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

/**
 * Bodies that a JavaScript runtime treats specially as object keys (`__proto__`, `hasOwnProperty`, `constructor`,
 * every own name of Object.prototype) are ordinary text to the pipeline: grouping the batch by body must neither
 * drop such a record (a `__proto__` key sets the prototype) nor fail the execution (`hasOwnProperty` shadowed), and
 * the records batched with it are unaffected.
 */
describe("pipeline.asl.json: bodies the runtime treats specially", () => {
  const applied: string[] = [];
  const lambda: LambdaInvoker = async (req) => {
    applied.push(JSON.parse(req.Payload).messageId);
    return { StatusCode: 200, Payload: JSON.stringify({ ok: true }) };
  };
  let pipeline: PipelineMachine;
  const quarantined = () => pipeline.quarantined.map((input) => String(input.MessageAttributes?.originalMessageId?.StringValue));
  const execute = (records: unknown[]) => pipeline.machine.execute(records);

  beforeAll(async () => {
    pipeline = await startPipelineMachine(lambda, { lambdaRetries: 0 });
  });
  afterAll(() => pipeline.stop());
  beforeEach(() => { applied.length = 0; pipeline.quarantined.length = 0; });

  const charge = (orderId: string) => JSON.stringify({ tenantId: "special", orderId, amount: 10, currency: "EUR" });
  const SPECIAL = [...new Set(["__proto__", ...Object.getOwnPropertyNames(Object.prototype)])];

  it.each(SPECIAL)("quarantines the body %j as invalid-message and applies the valid records batched with it", async (text) => {
    const run = await execute([record("v1", charge(`${text}-1`)), record("s1", text), record("v2", charge(`${text}-2`))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(quarantined()).toEqual(["s1"]);
    expect(applied.sort()).toEqual(["v1", "v2"]);
  });

  it("groups copies of a special body like any other: one quarantined leader, its copies quarantined after it", async () => {
    const run = await execute([record("p1", "__proto__"), record("h1", "hasOwnProperty"), record("p2", "__proto__"), record("h2", "hasOwnProperty"), record("v", charge("mixed"))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(quarantined().sort()).toEqual(["h1", "h2", "p1", "p2"]);
    expect(applied).toEqual(["v"]);
  });

  it("keeps each copy's own fate when the same message id comes twice in one batch (a batching window joins receives)", async () => {
    const run = await execute([record("same", charge("twice")), record("same", charge("twice"))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(applied).toEqual(["same"]);
  });
});
