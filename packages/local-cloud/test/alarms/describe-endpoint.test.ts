/**
 * The local CloudWatch endpoint: DescribeAlarms over the local evaluator, read with the real AWS SDK client, its raw
 * answers held to CloudWatch's own API model (botocore's `monitoring`, packages/testing/src/aws-models): after one
 * quarantine and two minutes of evaluations, the DLQ depth alarm is in ALARM and notifies the stack's topic.
 */
import { join } from "node:path";
import { CloudWatchClient, DescribeAlarmsCommand } from "@aws-sdk/client-cloudwatch";
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";
import { checkOperationShape, waitFor, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { startLocalCloud, type CloudEvent, type LocalCloud } from "../../src/cloud";

describe("Local CloudWatch endpoint: DescribeAlarms", () => {
  let stack: SynthesizedStack;
  let cloud: LocalCloud;
  let client: CloudWatchClient;
  const raw = (target: string, body: unknown) =>
    fetch(cloud.endpoints.cloudwatch, { method: "POST", headers: { "content-type": "application/x-amz-json-1.0", "x-amz-target": target }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, json: (await r.json()) as { MetricAlarms: { AlarmName: string }[]; NextToken?: string; __type?: string } }));

  beforeAll(async () => {
    stack = synthStack();
    cloud = await startLocalCloud({ stackFile: join(stack.stackDir, "cdk.tf.json") });
    client = new CloudWatchClient({ endpoint: cloud.endpoints.cloudwatch, region: cloud.region, credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
    const outcomes: CloudEvent[] = [];
    cloud.subscribe((event) => event.type === "record-outcome" && outcomes.push(event));
    await cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: cloud.outputs.queue_url as string, MessageBody: "{not json" }));
    await waitFor(() => outcomes.length === 1, { timeoutMs: 30_000, message: "the invalid body's outcome" });
    await cloud.drain();
    await cloud.alarms.advance(120);
  }, 120_000);
  afterAll(async () => {
    client?.destroy();
    await cloud?.stop();
    stack?.cleanup();
  });

  it("answers the SDK: the DLQ depth alarm in ALARM after a quarantine, with its actions, reason and ARN", async () => {
    const out = await client.send(new DescribeAlarmsCommand({ AlarmNames: ["test-dlq-depth"] }));
    expect(out.MetricAlarms).toHaveLength(1);
    const [alarm] = out.MetricAlarms!;
    expect(alarm).toMatchObject({ AlarmName: "test-dlq-depth", StateValue: "ALARM", AlarmActions: [cloud.outputs.alarm_topic_arn] });
    expect(alarm.StateReason).toMatch(/^1 out of the last 1 datapoints/);
    expect(alarm.AlarmArn).toMatch(/^arn:aws:cloudwatch:[a-z0-9-]+:\d{12}:alarm:test-dlq-depth$/);
    expect(alarm.StateUpdatedTimestamp).toBeInstanceOf(Date);
  });

  it("pages through every alarm of the stack, filters by state and prefix, as CloudWatch's model shapes the answer", async () => {
    const all: string[] = [];
    let token: string | undefined;
    do {
      const page = await raw("GraniteServiceVersion20100801.DescribeAlarms", { AlarmNamePrefix: "test-", MaxRecords: 5, ...(token ? { NextToken: token } : {}) });
      expect(page.status).toBe(200);
      expect(checkOperationShape("cloudwatch", "DescribeAlarms", "output", page.json)).toEqual([]);
      all.push(...page.json.MetricAlarms.map((a) => a.AlarmName));
      token = page.json.NextToken;
    } while (token);
    expect(new Set(all)).toEqual(new Set(cloud.alarms.states().keys()));
    const alarming = await client.send(new DescribeAlarmsCommand({ StateValue: "ALARM" }));
    expect(alarming.MetricAlarms!.map((a) => a.AlarmName).sort()).toEqual(["test-dlq-arrivals", "test-dlq-depth"]);
  });

  it("refuses what CloudWatch refuses, by its error names", async () => {
    expect(checkOperationShape("cloudwatch", "DescribeAlarms", "input", { AlarmNames: ["a"], AlarmNamePrefix: "a" })).toEqual([]);
    expect(await raw("GraniteServiceVersion20100801.DescribeAlarms", { AlarmNames: ["a"], AlarmNamePrefix: "a" })).toMatchObject({ status: 400, json: { __type: "InvalidParameterCombination" } });
    expect(await raw("GraniteServiceVersion20100801.DescribeAlarms", { MaxRecords: 101 })).toMatchObject({ status: 400, json: { __type: "ValidationError" } });
    expect(await raw("GraniteServiceVersion20100801.PutMetricAlarm", {})).toMatchObject({ status: 400, json: { __type: "UnknownOperationException" } });
  });
});
