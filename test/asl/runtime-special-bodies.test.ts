import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createStateMachine, realClock, type LambdaInvoker } from "../../local/stepfunctions";
import { renderPipelineDefinition } from "../../statemachines/render";
import { PIPELINE_TEST_PARAMS } from "../helpers/pipeline-params";
import { pkSkTable, startDynalite, type Dynalite } from "../helpers/dynalite";

/**
 * Bodies that a JavaScript runtime treats specially as object keys (`__proto__`, `hasOwnProperty`, `constructor`,
 * every own name of Object.prototype) are ordinary text to the pipeline: grouping the batch by body must neither
 * drop such a record (a `__proto__` key sets the prototype) nor fail the execution (`hasOwnProperty` shadowed), and
 * the records batched with it are unaffected.
 */
describe("pipeline.asl.json: bodies the runtime treats specially", () => {
  let ddb: Dynalite;
  const applied: string[] = [];
  const quarantined: string[] = [];
  const lambda: LambdaInvoker = async (req) => {
    applied.push(JSON.parse(req.Payload).messageId);
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
    machine = createStateMachine(renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, lambdaRetries: 0 }), {
      name: "wf", arn: "arn:aws:states:us-east-1:000000000000:stateMachine:wf", clock: realClock, integrations: { dynamodb: ddb.client, sqs, lambda },
    });
  });
  afterAll(() => ddb.stop());
  beforeEach(() => { applied.length = 0; quarantined.length = 0; });

  const record = (messageId: string, body: string) => ({ messageId, receiptHandle: `rh-${messageId}`, body, attributes: { ApproximateReceiveCount: "1" }, messageAttributes: {}, md5OfBody: "x", eventSource: "aws:sqs", eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:q", awsRegion: "us-east-1" });
  const charge = (orderId: string) => JSON.stringify({ tenantId: "special", orderId, amount: 10, currency: "EUR" });
  const SPECIAL = [...new Set(["__proto__", ...Object.getOwnPropertyNames(Object.prototype)])];

  it.each(SPECIAL)("quarantines the body %j as invalid-message and applies the valid records batched with it", async (text) => {
    const run = await machine.execute([record("v1", charge(`${text}-1`)), record("s1", text), record("v2", charge(`${text}-2`))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(quarantined).toEqual(["s1"]);
    expect(applied.sort()).toEqual(["v1", "v2"]);
  });

  it("groups copies of a special body like any other: one quarantined leader, its copies quarantined after it", async () => {
    const run = await machine.execute([record("p1", "__proto__"), record("h1", "hasOwnProperty"), record("p2", "__proto__"), record("h2", "hasOwnProperty"), record("v", charge("mixed"))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(quarantined.sort()).toEqual(["h1", "h2", "p1", "p2"]);
    expect(applied).toEqual(["v"]);
  });

  it("keeps each copy's own fate when the same message id comes twice in one batch (a batching window joins receives)", async () => {
    const run = await machine.execute([record("same", charge("twice")), record("same", charge("twice"))]);
    expect(run.status).toBe("SUCCEEDED");
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(applied).toEqual(["same"]);
  });
});
