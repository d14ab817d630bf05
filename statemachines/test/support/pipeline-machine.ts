import { SendMessageCommand, type SendMessageCommandInput, type SQSClient } from "@aws-sdk/client-sqs";
import { realClock } from "@effectively-once/local-cloud/emulators";
import { createStateMachine, type LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { renderPipelineDefinition, type PipelineDefinitionParams } from "../../src/render";
import { pkSkTable, startDynalite, type Dynalite } from "@effectively-once/testing";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

/** The pipeline definition on the interpreter, with its ledger on dynalite and a DLQ that records every send. */
export interface PipelineMachine {
  readonly machine: ReturnType<typeof createStateMachine>;
  /** Every DLQ send, in order; tests may empty it. */
  readonly quarantined: SendMessageCommandInput[];
  /** Every PutLogEvents request (the fate metrics, when `fateMetrics` is given), in order; `failLogs` makes them fail. */
  readonly logCalls: { logGroupName: string; logStreamName: string; logEvents: { timestamp: number; message: string }[] }[];
  failLogs: boolean;
  stop(): Promise<void>;
}

export async function startPipelineMachine(lambda: LambdaInvoker, params: Partial<PipelineDefinitionParams> = {}): Promise<PipelineMachine> {
  const ddb: Dynalite = await startDynalite();
  await ddb.createTable(pkSkTable("ledger"));
  const quarantined: SendMessageCommandInput[] = [];
  const sqs = {
    async send(command: unknown) {
      if (!(command instanceof SendMessageCommand)) throw new Error("unexpected command");
      quarantined.push(command.input);
      return { MessageId: `dlq-${quarantined.length}`, MD5OfMessageBody: "x", $metadata: {} };
    },
  } as unknown as SQSClient;
  const logCalls: PipelineMachine["logCalls"] = [];
  const state = { failLogs: false };
  const logs = {
    async send(command: { input: object }) {
      if (state.failLogs) throw Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", $metadata: { httpStatusCode: 400, requestId: "r" } });
      logCalls.push(command.input as PipelineMachine["logCalls"][number]);
      return { $metadata: {} };
    },
  };
  const machine = createStateMachine(renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, ...params }), {
    name: "wf",
    arn: "arn:aws:states:us-east-1:000000000000:stateMachine:wf",
    clock: realClock,
    integrations: { dynamodb: ddb.client, sqs, lambda, logs },
  });
  return {
    machine,
    quarantined,
    logCalls,
    get failLogs() {
      return state.failLogs;
    },
    set failLogs(value: boolean) {
      state.failLogs = value;
    },
    stop: () => ddb.stop(),
  };
}

/** An SQS record as the pipe hands it over. */
export function sqsRecord(messageId: string, body: string, extra: { attributes?: Record<string, string>; messageAttributes?: Record<string, unknown> } = {}) {
  return {
    messageId,
    receiptHandle: `rh-${messageId}`,
    body,
    attributes: extra.attributes ?? { ApproximateReceiveCount: "1" },
    messageAttributes: extra.messageAttributes ?? {},
    md5OfBody: "x",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:q",
    awsRegion: "us-east-1",
  };
}
