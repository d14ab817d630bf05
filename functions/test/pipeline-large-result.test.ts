/**
 * A side effect whose result is larger than Step Functions' 256 KiB task result (or DynamoDB's 400 KB item): the
 * pipeline state machine on the interpreter, invoking the real handler wrapper (Powertools included) in process,
 * with the ledger, the Powertools table and an effect journal in dynalite.
 */
import { Logger } from "@aws-lambda-powertools/logger";
import { CreateTableCommand, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { SendMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { createPipelineHandler, EffectJournal, effectKey, type PipelineHandlerOptions } from "../src";
import { realClock } from "@effectively-once/local-cloud/emulators";
import { type ExecutionResult, type LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { functionEnvironment, lambdaContext } from "@effectively-once/local-cloud/harness";
import { ORDERS_FIELD_RULES, ORDERS_KEY, ORDERS_PAYLOAD_FIELDS, orderKey } from "@effectively-once/testing";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { readEffects } from "./support/effects";
import { createTable, startBareDynalite, type LocalDynamo } from "@effectively-once/testing";
import { machine } from "@effectively-once/testing";

const TABLES = { idempotency: "charge-idempotency", effects: "charge-effects" };
const DOMAIN = { businessKey: ORDERS_KEY, operation: "charge", payloadFields: [...ORDERS_PAYLOAD_FIELDS], fieldRules: ORDERS_FIELD_RULES };

interface Order {
  readonly tenantId: string;
  readonly orderId: string;
  readonly amount: number;
  readonly currency: string;
  /** Characters of filler the side effect returns besides its receipt. */
  readonly resultChars: number;
  readonly [field: string]: unknown;
}

/** The downstream: applies the charge in the journal, then returns a result as large as the order asks. */
const charge: PipelineHandlerOptions<Order, Record<string, unknown>, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  async sideEffect(event, { resources: journal }) {
    const receipt = await journal.apply({ effectKey: effectKey(event.businessKey, event.operation), messageId: event.messageId, fingerprint: event.payloadHash, attributes: {} });
    return { outcome: receipt.outcome, filler: "x".repeat(event.payload.resultChars) };
  },
};

let ddb: LocalDynamo;
let invocations = 0;
const dlq: string[] = [];
const sqs = {
  async send(command: unknown) {
    if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
    dlq.push(String(command.input.MessageAttributes?.reason?.StringValue));
    return { MessageId: `dlq-${dlq.length}`, MD5OfMessageBody: "x", $metadata: { httpStatusCode: 200, requestId: "r" } };
  },
} as unknown as SQSClient;

beforeAll(async () => {
  ddb = await startBareDynalite();
  await createTable(ddb.client, "ledger");
  await createTable(ddb.client, TABLES.effects);
  await ddb.client.send(
    new CreateTableCommand({ TableName: TABLES.idempotency, BillingMode: "PAY_PER_REQUEST", AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }], KeySchema: [{ AttributeName: "id", KeyType: "HASH" }] }),
  );
});
afterAll(async () => ddb.close());

/** Lambda's Invoke API around the handler: a thrown error is a function error payload, as the runtime reports it. */
function invokerOf(handler: (event: unknown, context: ReturnType<typeof lambdaContext>) => Promise<unknown>, functionName: string): LambdaInvoker {
  return async (req) => {
    invocations++;
    try {
      return { StatusCode: 200, Payload: JSON.stringify(await handler(JSON.parse(req.Payload), lambdaContext(functionName))) };
    } catch (error) {
      const { name, message } = error as Error;
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: name, errorMessage: message, trace: [] }) };
    }
  };
}

function record(messageId: string, body: Order, receiveCount: number) {
  return {
    messageId,
    receiptHandle: `rh-${messageId}-${receiveCount}`,
    body: JSON.stringify(body),
    attributes: { ApproximateReceiveCount: String(receiveCount), SentTimestamp: "1700000000000" },
    messageAttributes: {},
    md5OfBody: "x",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:123456789012:queue",
    awsRegion: "us-east-1",
  };
}

/** The per-record end states the execution passed through, with their detail (`RetryLater: downstream failed: …`). */
function endStates(run: ExecutionResult): string[] {
  const ends = run.events.filter((e) => /StateExited$/.test(e.type) && ["Processed", "Duplicate", "RetryLater", "Quarantine"].includes(String(e.details?.name)));
  return ends.map((e) => {
    const { detail } = (e.details?.output ?? {}) as { detail?: string };
    return detail ? `${String(e.details?.name)}: ${detail}` : String(e.details?.name);
  });
}

describe("pipeline.asl.json with a side effect result above the payload limits", () => {
  it.each([
    ["~300 KiB", 300 * 1024],
    ["~500 KB", 500_000],
  ])("applies a side effect returning %s once: the message ends processed, a redelivery is a duplicate", async (_label, resultChars) => {
    // Arrange
    const env = functionEnvironment(DOMAIN, "charge", ddb.endpoint, TABLES);
    const handler = createPipelineHandler(charge, { env, dynamoDb: ddb.client, logger: new Logger({ logLevel: "SILENT" }) });
    // Real clock: the virtual clock would jump past the execution timeout while dynalite answers over HTTP.
    const m = machine(renderPipelineDefinition(PIPELINE_TEST_PARAMS), { clock: realClock, integrations: { dynamodb: ddb.client, sqs, lambda: invokerOf(handler, env.AWS_LAMBDA_FUNCTION_NAME as string) } });
    const order: Order = { tenantId: "t1", orderId: `o-${resultChars}`, amount: 10, currency: "EUR", resultChars };
    invocations = 0;
    dlq.length = 0;

    // Act
    const first = await m.execute([record("m1", order, 1)]);
    const again = await m.execute([record("m1", order, 2)]);

    // Assert
    expect([first.status, first.error]).toEqual(["SUCCEEDED", undefined]);
    expect(endStates(first)).toEqual(["Processed"]);
    expect(first.output).toEqual({ batchItemFailures: [] });
    expect(again.output).toEqual({ batchItemFailures: [] });
    expect(endStates(again)).toEqual(["Duplicate"]);
    expect(dlq).toEqual([]);
    expect(invocations).toBe(1);
    const ledger = await ddb.client.send(new GetItemCommand({ TableName: "ledger", Key: { pk: { S: orderKey("t1", order.orderId) }, sk: { S: "charge" } }, ConsistentRead: true }));
    expect(ledger.Item?.status?.S).toBe("COMPLETED");
    const effects = await readEffects(ddb.client, TABLES.effects, effectKey(orderKey("t1", order.orderId), "charge"));
    expect(effects.effects).toHaveLength(1);
    expect(effects.calls.map((call) => call.outcome)).toEqual(["applied"]);
  });
});
