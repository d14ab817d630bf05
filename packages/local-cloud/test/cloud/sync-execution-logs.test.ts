/**
 * The local cloud's StartSyncExecution and execution logs, through the AWS SDK as a deployed stack is reached:
 * the input limit counts UTF-8 bytes (AWS's model), a refused start runs nothing and logs nothing, and the
 * machine's log group holds each execution's input as the caller (or the pipe) sent it.
 */
import { CloudWatchLogsClient, FilterLogEventsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { SFNClient, StartSyncExecutionCommand } from "@aws-sdk/client-sfn";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { join } from "node:path";
import { startLocalCloud, type LocalCloud } from "../../src/cloud";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import { type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { waitFor } from "@effectively-once/testing";

const LIMIT = 262_144;
let stack: SynthesizedStack;
let cloud: LocalCloud;
let sfn: SFNClient;
let logs: CloudWatchLogsClient;
let arn: string;
let group: string;

beforeAll(async () => {
  stack = synthStack({ stateMachineLogLevel: "ALL", includeExecutionDataInLogs: true });
  cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json") });
  const common = { region: cloud.region, credentials: LOCAL_CREDENTIALS };
  sfn = new SFNClient({ ...common, endpoint: cloud.endpoints.stepfunctions, disableHostPrefix: true });
  logs = new CloudWatchLogsClient({ ...common, endpoint: cloud.endpoints.logs });
  arn = cloud.outputs.state_machine_arn as string;
  group = cloud.provisioned.logGroups.find((g) => g.includes("states"))!;
}, 60_000);
afterAll(async () => {
  sfn?.destroy();
  logs?.destroy();
  await cloud?.stop();
  stack?.cleanup();
});

const logged = async (term: string) => (await logs.send(new FilterLogEventsCommand({ logGroupName: group, filterPattern: `"${term}"` }))).events ?? [];

describe("Local cloud: StartSyncExecution (AWS SDK)", () => {
  it("accepts 262,144 bytes and refuses 262,144 characters that are more bytes, before any execution", async () => {
    // Arrange: JSON strings whose text is exactly the limit in characters; one is ASCII, one holds a 2-byte character.
    const ascii = JSON.stringify("a".repeat(LIMIT - 2));
    const multiByte = JSON.stringify(`é${"b".repeat(LIMIT - 3)}`);
    expect([ascii.length, multiByte.length, Buffer.byteLength(multiByte)]).toEqual([LIMIT, LIMIT, LIMIT + 1]);

    // Act
    const accepted = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input: ascii, name: "at-limit" }));
    const refused = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input: multiByte, name: "over-in-bytes" })).catch((e: Error) => e);

    // Assert: the ASCII input ran (the pipeline's Map refuses a non-array input: FAILED, an answer, not an error).
    expect(accepted).toMatchObject({ status: "FAILED", name: "at-limit", stateMachineArn: arn, executionArn: expect.any(String) });
    expect(refused).toMatchObject({ name: "ValidationException", message: expect.stringContaining(`Member must have length less than or equal to ${LIMIT}`) });
    expect(await logged("over-in-bytes")).toEqual([]);
  });

  it("answers a missing machine and a non-JSON input with AWS's errors", async () => {
    const missing = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: `${arn}-nope`, input: "{}" })).catch((e: Error) => e);
    const notJson = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input: "{nope" })).catch((e: Error) => e);
    expect(missing).toMatchObject({ name: "StateMachineDoesNotExist" });
    expect(notJson).toMatchObject({ name: "InvalidExecutionInput" });
  });
});

describe("Local cloud: execution logs (FilterLogEvents)", () => {
  it("logs ExecutionStarted with the input text as sent, and the end, in the machine's log group", async () => {
    const input = '[ ]  ';
    const run = await sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input, name: "logged-run" }));
    const events = (await logged(run.executionArn!)).map((e) => JSON.parse(e.message!) as { type: string; details: { input?: string } });
    expect(events.map((e) => e.type)).toEqual(["ExecutionStarted", "ExecutionSucceeded"]);
    expect(events[0].details.input).toBe(input);
  });

  it("logs the batch the pipe sends, with the message's record", async () => {
    const body = JSON.stringify({ tenantId: "t-logs", orderId: "o-1", amount: 100, currency: "EUR", note: "Привет 😀" });
    const sent = await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: body }));
    const started = await waitFor(async () => (await logged(sent.MessageId!)).find((e) => e.message!.includes("ExecutionStarted")), { timeoutMs: 20_000 });
    const records = JSON.parse((JSON.parse(started.message!) as { details: { input: string } }).details.input) as { messageId: string; body: string }[];
    expect(records).toEqual([expect.objectContaining({ messageId: sent.MessageId, body })]);
  });

  it("refuses a JSON filter pattern by name, and an unknown group as AWS does", async () => {
    await expect(logs.send(new FilterLogEventsCommand({ logGroupName: group, filterPattern: '{ $.type = "x" }' }))).rejects.toMatchObject({ name: "InvalidParameterException" });
    await expect(logs.send(new FilterLogEventsCommand({ logGroupName: "/no/such/group" }))).rejects.toMatchObject({ name: "ResourceNotFoundException" });
  });
});
