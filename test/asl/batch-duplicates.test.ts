import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createStateMachine, realClock, type LambdaInvoker } from "../../local/stepfunctions";
import { renderPipelineDefinition } from "../../statemachines/render";
import { PIPELINE_TEST_PARAMS } from "../helpers/pipeline-params";
import { pkSkTable, startDynalite, type Dynalite } from "../helpers/dynalite";

/** Exact duplicates inside one batch: processed once by the leader; followers share its fate. */
describe("pipeline.asl.json: duplicates inside one batch", () => {
  let ddb: Dynalite;
  const calls: string[] = [];
  const quarantined: string[] = [];
  const lambda: LambdaInvoker = async (req) => {
    const event = JSON.parse(req.Payload);
    calls.push(event.businessKey);
    if (event.payload.orderId.startsWith("flaky")) {
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "downstream 503" }) };
    }
    return { StatusCode: 200, Payload: JSON.stringify({ ok: true }) };
  };
  const sqs = {
    async send(command: unknown) {
      if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
      quarantined.push(String(command.input.MessageAttributes?.originalMessageId?.StringValue));
      return { MessageId: `dlq-${quarantined.length}`, MD5OfMessageBody: "x", $metadata: {} };
    },
  } as unknown as SQSClient;
  let machine: ReturnType<typeof createStateMachine>;

  beforeAll(async () => {
    ddb = await startDynalite();
    await ddb.createTable(pkSkTable("ledger"));
    const definition = renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, lambdaRetries: 0 });
    machine = createStateMachine(definition, { name: "wf", arn: "arn:aws:states:us-east-1:000000000000:stateMachine:wf", clock: realClock, integrations: { dynamodb: ddb.client, sqs, lambda } });
  });
  afterAll(() => ddb.stop());

  const record = (messageId: string, body: string) => ({ messageId, receiptHandle: `rh-${messageId}`, body, attributes: { ApproximateReceiveCount: "1" }, messageAttributes: {}, md5OfBody: "x", eventSource: "aws:sqs", eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:q", awsRegion: "us-east-1" });
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
    expect([...quarantined].sort()).toEqual(copies);
  });
});
