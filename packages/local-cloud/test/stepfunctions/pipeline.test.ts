/**
 * The project's pipeline state machine (statemachines/pipeline.asl.json, rendered by its renderer) run by the
 * interpreter against dynalite, a stub LambdaInvoker and a recording SQS client.
 */
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { realClock } from "../../src/clock/clock";
import { type LambdaInvoker } from "../../src/stepfunctions";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { createTable, startBareDynalite, type LocalDynamo } from "@effectively-once/testing";
import { machine } from "@effectively-once/testing";

let ddb: LocalDynamo;
beforeAll(async () => {
  ddb = await startBareDynalite();
  await createTable(ddb.client, "ledger");
});
afterAll(async () => ddb.close());

const definition = renderPipelineDefinition(PIPELINE_TEST_PARAMS);

function record(messageId: string, body: unknown) {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body: typeof body === "string" ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: "1", SentTimestamp: "1700000000000" },
    messageAttributes: {},
    md5OfBody: "x",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:123456789012:queue",
    awsRegion: "us-east-1",
  };
}

/** The downstream function: orderId "bad" is a permanent rejection, "flaky" a transient failure. */
const calls: Array<{ businessKey: string; messageId: string }> = [];
const lambda: LambdaInvoker = async (req) => {
  const payload = JSON.parse(req.Payload);
  calls.push(payload);
  const orderId = payload.payload.orderId;
  if (orderId === "bad") return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "ValidationError", errorMessage: "amount < 0" }) };
  if (orderId === "flaky") return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "downstream 503" }) };
  return { StatusCode: 200, Payload: JSON.stringify({ applied: payload.businessKey }) };
};

const dlq: Array<{ body: string; attributes: Record<string, string> }> = [];
const sqs = {
  async send(command: unknown) {
    if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
    const attrs = Object.fromEntries(Object.entries(command.input.MessageAttributes ?? {}).map(([k, v]) => [k, String(v.StringValue)]));
    dlq.push({ body: String(command.input.MessageBody), attributes: attrs });
    return { MessageId: `dlq-${dlq.length}`, MD5OfMessageBody: "x", $metadata: { httpStatusCode: 200, requestId: "r" } };
  },
} as unknown as SQSClient;

describe("pipeline.asl.json on the interpreter", () => {
  it("processes, quarantines and retries the records of two batches and answers batchItemFailures", async () => {
    // Real clock: the virtual clock would jump past the execution timeout while dynalite answers over HTTP.
    const m = machine(definition, { clock: realClock, integrations: { dynamodb: ddb.client, sqs, lambda } });
    const first = await m.execute([
      record("m1", { tenantId: "t1", orderId: "o1", amount: 10, currency: "EUR" }),
      record("m3", "{not json"),
      record("m4", { tenantId: "t1", orderId: "bad", amount: 1, currency: "EUR" }),
      record("m5", { tenantId: "t1", orderId: "flaky", amount: 5, currency: "EUR" }),
      record("m7", { tenantId: "t1", amount: 5 }),
    ]);
    expect(first.status).toBe("SUCCEEDED");
    expect(first.output).toEqual({ batchItemFailures: [{ itemIdentifier: "m5" }] });
    expect(dlq.map((d) => [d.attributes.originalMessageId, d.attributes.reason]).sort()).toEqual([
      ["m3", "invalid-message"],
      ["m4", "rejected"],
      ["m7", "invalid-message"],
    ]);
    expect(calls.map((c) => c.messageId).sort()).toEqual(["m1", "m4", "m5"]);

    // Same key and payload again: a duplicate; same key with another amount: payload-mismatch.
    dlq.length = 0;
    const second = await m.execute([
      record("m2", { currency: "EUR", amount: 10, orderId: "o1", tenantId: "t1" }),
      record("m6", { tenantId: "t1", orderId: "o1", amount: 99, currency: "EUR" }),
      record("m8", { tenantId: "t1", orderId: "flaky", amount: 5, currency: "EUR" }),
    ]);
    expect(second.status).toBe("SUCCEEDED");
    expect(second.output).toEqual({ batchItemFailures: [{ itemIdentifier: "m8" }] });
    expect(dlq.map((d) => [d.attributes.originalMessageId, d.attributes.reason, d.attributes.businessKey])).toEqual([["m6", "payload-mismatch", '["t1","o1"]']]);
    expect(calls.filter((c) => c.businessKey === '["t1","o1"]')).toHaveLength(1);
  });
});
