/**
 * Quarantine must not fail on the message's own content: the DLQ send carries the body and attributes that obey
 * SQS's rules whatever the body holds, and `detail` never carries a stack trace. The SQS client here checks each
 * send against those rules (AWS: SendMessage; valid characters #x9 #xA #xD #x20-#xD7FF #xE000-#xFFFD
 * #x10000-#x10FFFF; non-empty attribute values; body + attributes within the queue's maximum size).
 */
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { realClock } from "@effectively-once/local-cloud/emulators";
import { createStateMachine, type LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { businessKeyFromOperator } from "@effectively-once/contract";
import { DLQ_MAX_MESSAGE_BYTES, largestMaxMessageBytes, sourceQueueMaxBytes } from "@effectively-once/contract";
import { businessKeyText } from "@effectively-once/contract";
import { renderPipelineDefinition } from "../src/render";
import { pkSkTable, startDynalite, type Dynalite } from "@effectively-once/testing";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

/** AWS's rule for message bodies and String attribute values, as a check (the `u` flag: code points). */
const SQS_VALID = /^[\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

interface Sent { readonly body: string; readonly attributes: Record<string, string> }

function strictDlq(sent: Sent[]): SQSClient {
  return {
    async send(command: unknown) {
      if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
      const { MessageBody = "", MessageAttributes = {} } = command.input;
      let size = Buffer.byteLength(MessageBody, "utf8");
      const attributes: Record<string, string> = {};
      for (const [name, value] of Object.entries(MessageAttributes)) {
        const text = String(value.StringValue ?? "");
        if (text === "" || !SQS_VALID.test(text)) throw Object.assign(new Error(`attribute ${name} is invalid`), { name: "InvalidParameterValue", $metadata: { httpStatusCode: 400 } });
        size += Buffer.byteLength(name) + Buffer.byteLength(String(value.DataType)) + Buffer.byteLength(text);
        attributes[name] = text;
      }
      if (size > DLQ_MAX_MESSAGE_BYTES) throw Object.assign(new Error("too long"), { name: "InvalidParameterValue", $metadata: { httpStatusCode: 400 } });
      sent.push({ body: MessageBody, attributes });
      return { MessageId: `dlq-${sent.length}`, MD5OfMessageBody: "x", $metadata: { httpStatusCode: 200 } };
    },
  } as unknown as SQSClient;
}

const record = (messageId: string, body: string) => ({
  messageId,
  receiptHandle: `rh-${messageId}`,
  body,
  attributes: { ApproximateReceiveCount: "1", SentTimestamp: "1764547200000" },
  messageAttributes: {},
  md5OfBody: "x",
  eventSource: "aws:sqs",
  eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:q",
  awsRegion: "us-east-1",
});

describe("pipeline.asl.json: quarantine that cannot fail", () => {
  let ddb: Dynalite;
  const sent: Sent[] = [];
  /** The runtime's error shape: errorType, errorMessage and the stack trace. */
  const lambda: LambdaInvoker = async (req) => {
    const event = JSON.parse(req.Payload);
    if (event.payload.currency === "XXX") {
      const error = { errorType: "DownstreamRefusedError", errorMessage: "downstream refuses charges in XXX", trace: ["DownstreamRefusedError: downstream refuses", "    at charge (/var/task/index.js:1:2345)"] };
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(error) };
    }
    return { StatusCode: 200, Payload: "{}" };
  };
  let machine: ReturnType<typeof createStateMachine>;

  beforeAll(async () => {
    ddb = await startDynalite();
    await ddb.createTable(pkSkTable("ledger"));
    machine = createStateMachine(renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, permanentErrors: ["DownstreamRefusedError"] }), {
      name: "wf",
      arn: "arn:aws:states:us-east-1:000000000000:stateMachine:wf",
      clock: realClock,
      integrations: { dynamodb: ddb.client, sqs: strictDlq(sent), lambda },
    });
  });
  afterAll(() => ddb.stop());
  beforeEach(() => {
    sent.length = 0;
  });

  it("keeps the function's error message in detail, never its stack trace", async () => {
    const run = await machine.execute([record("r1", JSON.stringify({ tenantId: "t", orderId: "r1", amount: 5, currency: "XXX" }))]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(sent[0].attributes).toMatchObject({ reason: "rejected", detail: "DownstreamRefusedError: downstream refuses charges in XXX" });
    expect(sent[0].attributes.detail).not.toMatch(/trace|at charge|index\.js/);
  });

  it("carries a key holding U+FFFF (which SQS refuses) as its JSON escape, which reads back as the ledger's key", async () => {
    const tenantId = "t\uffff";
    await machine.execute([record("k1", JSON.stringify({ tenantId, orderId: "o", amount: 5, currency: "EUR" }))]);
    await machine.execute([record("k2", JSON.stringify({ tenantId, orderId: "o", amount: 6, currency: "EUR" }))]);
    expect(sent).toHaveLength(1);
    expect(sent[0].attributes).toMatchObject({ reason: "payload-mismatch", businessKey: '["t\\uffff","o"]' });
    expect(businessKeyFromOperator({ key: sent[0].attributes.businessKey })).toBe(businessKeyText([tenantId, "o"]));
  });

  it("cleans characters SQS refuses out of detail, and quarantines the message on its first delivery", async () => {
    const body = `{"tenantId":"t","orderId":"o2","amount":"\\ufffe\\ud800\\u0001","currency":"EUR"}`;
    const run = await machine.execute([record("d1", body)]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(sent[0].body).toBe(body);
    expect(sent[0].attributes.reason).toBe("invalid-message");
    expect(sent[0].attributes.detail).toMatch(/^amount: expected an integer >= 1, got /);
  });

  it("fits the largest message the source queue accepts, with every attribute, under the DLQ's limit", async () => {
    // The largest source queue the synth accepts: batchSize 1's largest maxMessageBytes, plus the redrive's room.
    const MAX_MESSAGE_BYTES = sourceQueueMaxBytes(largestMaxMessageBytes(1));
    const padding = "\\\"".repeat(Math.floor((MAX_MESSAGE_BYTES - 200) / 2));
    const body = `{"tenantId":"${"é".repeat(60)}","orderId":"o3","amount":"ten","currency":"EUR","pad":"${padding}"}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    const run = await machine.execute([record("b1", body)]);
    expect(run.output).toEqual({ batchItemFailures: [] });
    expect(sent[0].attributes.reason).toBe("invalid-message");
  });
});
