import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { sqsRecord as record, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

/** Exact duplicates inside one batch: processed once by the leader; followers share its fate. */
describe("pipeline.asl.json: duplicates inside one batch", () => {
  const calls: string[] = [];
  const lambda: LambdaInvoker = async (req) => {
    const event = JSON.parse(req.Payload);
    calls.push(event.businessKey);
    if (event.payload.orderId.startsWith("flaky")) {
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "downstream 503" }) };
    }
    return { StatusCode: 200, Payload: JSON.stringify({ ok: true }) };
  };
  let pipeline: PipelineMachine;
  const machine = { execute: (records: unknown[]) => pipeline.machine.execute(records) };
  const quarantined = () => pipeline.quarantined.map((input) => String(input.MessageAttributes?.originalMessageId?.StringValue));

  beforeAll(async () => {
    pipeline = await startPipelineMachine(lambda, { lambdaRetries: 0 });
  });
  afterAll(() => pipeline.stop());

  const body = (orderId: string) => JSON.stringify({ tenantId: "dup", orderId, amount: 10, currency: "EUR" });

  it("calls the function once for three identical bodies and acknowledges the two followers", async () => {
    const run = await machine.execute([record("a1", body("o1")), record("b1", body("o2")), record("a2", body("o1")), record("a3", body("o1"))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(calls.filter((k) => k === JSON.stringify(["dup", "o1"]))).toHaveLength(1);
  });

  it("retries the followers with their leader when the leader must be retried", async () => {
    const run = await machine.execute([record("f1", body("flaky-1")), record("f2", body("flaky-1")), record("ok", body("o3"))]);
    expect(run.output).toEqual({ batchItemFailures: [{ itemIdentifier: "f1" }, { itemIdentifier: "f2" }] });
  });

  it("quarantines every copy of an invalid body in the batch, each as itself, with the leader's reason", async () => {
    // Retried instead, each receive would quarantine one more copy, and copies past maxReceiveCount would end in
    // the DLQ through the redrive, without a reason (found by the simulation: six copies of one invalid body).
    const copies = ["bad1", "bad2", "bad3", "bad4", "bad5", "bad6"];
    const run = await machine.execute(copies.map((id) => record(id, "{nope")));
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(quarantined().sort()).toEqual(copies);
  });
});
