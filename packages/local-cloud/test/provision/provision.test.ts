import { DescribeTableCommand, DescribeTimeToLiveCommand } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadStackFile, provisionStack } from "../../src/provision";
import { StackFileError, UnresolvedReferenceError } from "../../src/provision/errors";
import { createSqsClient, startSqs, type LocalSqs } from "../../src/sqs";
import { startDynalite, type Dynalite } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";
import { provisionedStack } from "../support/provisioned-stack";

describe("Function: provisionStack (freshly synthesized payments stack)", () => {
  const local = provisionedStack(() => synthStack({ executionTimeoutSeconds: 32, visibilityTimeoutSeconds: 192, leaseSeconds: 6, function: { timeoutSeconds: 2 }, lambdaRetries: 0, ledgerRetry: { intervalSeconds: 1, maxAttempts: 0, backoffRate: 1 } }));

  it("creates the queues with their attributes and the redrive to the DLQ's real ARN", async () => {
    const byName = Object.fromEntries(local.provisioned.queues.map((q) => [q.name, q]));
    expect(Object.keys(byName).sort()).toEqual(["test-dlq", "test-queue"]);
    const { Attributes } = await local.sqs.send(new GetQueueAttributesCommand({ QueueUrl: byName["test-queue"].url, AttributeNames: ["All"] }));
    expect(Attributes).toMatchObject({ VisibilityTimeout: "192", MessageRetentionPeriod: "345600" });
    expect(JSON.parse(Attributes!.RedrivePolicy!)).toEqual({ deadLetterTargetArn: byName["test-dlq"].arn, maxReceiveCount: 5 });
  });

  it("sets each aws_sqs_queue_policy as its queue's Policy attribute, references resolved (the DLQ refuses native moves)", async () => {
    const byName = Object.fromEntries(local.provisioned.queues.map((q) => [q.name, q]));
    const policyOf = async (name: string) =>
      (await local.sqs.send(new GetQueueAttributesCommand({ QueueUrl: byName[name].url, AttributeNames: ["Policy"] }))).Attributes?.Policy;
    const dlq = JSON.parse((await policyOf("test-dlq"))!);
    expect(dlq.Statement.map((s: { Action: string; Resource: string }) => [s.Action, s.Resource])).toEqual([
      ["sqs:StartMessageMoveTask", byName["test-dlq"].arn],
      ["sqs:PurgeQueue", byName["test-dlq"].arn],
    ]);
    expect(JSON.parse((await policyOf("test-queue"))!).Statement.map((s: { Action: string }) => s.Action)).toEqual(["sqs:PurgeQueue"]);
  });

  it("sets each aws_sqs_queue_redrive_allow_policy as its queue's RedriveAllowPolicy: the DLQ takes only the source queue, the source queue nobody", async () => {
    const byName = Object.fromEntries(local.provisioned.queues.map((q) => [q.name, q]));
    const allowOf = async (name: string) =>
      JSON.parse((await local.sqs.send(new GetQueueAttributesCommand({ QueueUrl: byName[name].url, AttributeNames: ["RedriveAllowPolicy"] }))).Attributes?.RedriveAllowPolicy ?? "null");
    expect(await allowOf("test-dlq")).toEqual({ redrivePermission: "byQueue", sourceQueueArns: [byName["test-queue"].arn] });
    expect(await allowOf("test-queue")).toEqual({ redrivePermission: "denyAll" });
  });

  it("creates the tables with their keys and remembers their TTL attributes", async () => {
    const ttl = Object.fromEntries(local.provisioned.tables.map((t) => [t.name, t.ttlAttribute]));
    expect(ttl).toEqual({ "test-ledger": "expiresAt", "test-idempotency": "expiration", "test-effects": "expiresAt" });
    const { Table } = await local.dynamo.client.send(new DescribeTableCommand({ TableName: "test-ledger" }));
    expect(Table!.KeySchema).toEqual([{ AttributeName: "pk", KeyType: "HASH" }, { AttributeName: "sk", KeyType: "RANGE" }]);
  });

  it("enables each table's TTL from its ttl block, as DescribeTimeToLive then reports it", async () => {
    const { TimeToLiveDescription } = await local.dynamo.client.send(new DescribeTimeToLiveCommand({ TableName: "test-ledger" }));
    expect(TimeToLiveDescription).toEqual({ TimeToLiveStatus: "ENABLED", AttributeName: "expiresAt" });
  });

  it("resolves the state machine definition to local names, ARNs and URLs", () => {
    const [machine] = local.provisioned.stateMachines;
    expect(machine).toMatchObject({ name: "test-workflow", type: "EXPRESS", arn: "arn:aws:states:us-east-1:000000000000:stateMachine:test-workflow" });
    const text = JSON.stringify(machine.definition);
    expect(text).not.toContain("${");
    // One invocation per batch (the default): the claim phase claims, the settle phase invokes alone and quarantines.
    const top = (machine.definition as any).States;
    const states = top.ProcessBatch.ItemProcessor.States;
    expect(top.ClaimBatch.ItemProcessor.States.Claim.Arguments.TableName).toBe("test-ledger");
    expect(top.InvokeBatch.Arguments.FunctionName).toBe("arn:aws:lambda:us-east-1:000000000000:function:test-charge");
    expect(states.Invoke.Arguments.FunctionName).toBe("arn:aws:lambda:us-east-1:000000000000:function:test-charge");
    expect(states.Quarantine.Arguments.QueueUrl).toBe(local.provisioned.queues.find((q) => q.name === "test-dlq")!.url);
  });

  it("resolves the function's package, handler, environment and limits", () => {
    const [fn] = local.provisioned.functions;
    expect(fn).toMatchObject({ name: "test-charge", handler: "index.handler", runtime: "nodejs22.x", timeoutSeconds: 2, memoryMb: 256, applicationLogLevel: "INFO" });
    expect(existsSync(fn.zipPath)).toBe(true);
    expect(fn.environment).toMatchObject({ IDEMPOTENCY_TABLE_NAME: "test-idempotency", EFFECTS_TABLE_NAME: "test-effects", PAYLOAD_FIELDS: '["amount","currency"]' });
  });

  it("wires the pipe from the source queue to the workflow", () => {
    const [pipe] = local.provisioned.pipes;
    expect(pipe).toMatchObject({
      name: "test-pipe",
      batchSize: 10,
      maximumBatchingWindowSeconds: 1,
      invocationType: "REQUEST_RESPONSE",
      targetArn: local.provisioned.stateMachines[0].arn,
      filterPatterns: [],
    });
    expect(pipe.source.name).toBe("test-queue");
  });

  it("gives the outputs local values under their Terraform names", () => {
    expect(local.provisioned.outputs).toMatchObject({
      queue_url: local.provisioned.queues.find((q) => q.name === "test-queue")!.url,
      ledger_table_name: "test-ledger",
      effects_table_name: "test-effects",
      function_name: "test-charge",
      region: "us-east-1",
    });
  });

  it("names everything it does not emulate in one line", () => {
    expect(local.provisioned.notEmulated).toMatch(/^not emulated: .*4 aws_iam_role \(IAM is not enforced\)/);
    // The alarms, the keep-alive schedule and the metric filter run (alarms/README.md); the topic only records.
    expect(local.provisioned.notEmulated).not.toContain("aws_cloudwatch_metric_alarm");
    expect(local.provisioned.notEmulated).toContain("1 aws_sns_topic (an alarm's notification is recorded in `cloud.alarms`, not sent)");
    expect(local.provisioned.notEmulated).toContain("X-Ray tracing");
  });
});

describe("Function: provisionStack (broken stacks)", () => {
  let dir: string;
  let sqsServer: LocalSqs;
  let sqs: SQSClient;
  let dynamo: Dynalite;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "provision-broken-"));
    [sqsServer, dynamo] = await Promise.all([startSqs(), startDynalite()]);
    sqs = createSqsClient(sqsServer.endpoint);
  });
  afterAll(async () => {
    sqs?.destroy();
    await Promise.all([sqsServer?.stop(), dynamo?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  function writeStack(resource: object, extra: object = {}): string {
    const file = join(dir, `stack-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify({ provider: { aws: [{ region: "us-east-1" }] }, resource, ...extra }));
    return file;
  }

  it("resolves two references in one string and keeps $${…} and %%{…} literal, as Terraform does", async () => {
    // Arrange
    const file = writeStack(
      { aws_sqs_queue: { q: { name: "escapes-q" } } },
      {
        data: { aws_caller_identity: { me: {} } },
        output: { both: { value: "${aws_sqs_queue.q.name}|${aws_sqs_queue.q.arn} $${literal} %%{literal} ${data.aws_caller_identity.me.account_id}" } },
      },
    );

    // Act
    const { outputs, queues } = await provisionStack(loadStackFile(file), { sqs, dynamodb: dynamo.client });

    // Assert
    expect(outputs.both).toBe(`escapes-q|${queues[0].arn} \${literal} %{literal} 000000000000`);
  });

  it("refuses a Terraform function with the expression and the resource that uses it", async () => {
    const file = writeStack({ aws_sqs_queue: { q: { name: "fn-q", policy: '${jsonencode({a = "}"})}' } } });
    await expect(provisionStack(loadStackFile(file), { sqs, dynamodb: dynamo.client })).rejects.toThrow(
      'cannot resolve ${jsonencode({a = "}"})} used by aws_sqs_queue.q: only references to resources and data sources are resolved locally, not Terraform functions or variables',
    );
  });

  it("names the resource and the attribute of a reference it cannot resolve", async () => {
    const file = writeStack({
      aws_sqs_queue: { q: { name: "broken-q", redrive_policy: '{"deadLetterTargetArn":"${aws_sqs_queue.missing.arn}","maxReceiveCount":5}' } },
    });
    await expect(provisionStack(loadStackFile(file), { sqs, dynamodb: dynamo.client })).rejects.toThrow(
      new UnresolvedReferenceError("aws_sqs_queue.missing", "arn", "aws_sqs_queue.q", "no such resource in the stack"),
    );
  });

  it("refuses an attribute the local cloud cannot know", async () => {
    const file = writeStack({
      aws_iam_role: { r: { name: "role-x", assume_role_policy: "{}" } },
      aws_sqs_queue: { q: { name: "tagged-q", policy: "${aws_iam_role.r.create_date}" } },
    });
    await expect(provisionStack(loadStackFile(file), { sqs, dynamodb: dynamo.client })).rejects.toThrow(/aws_iam_role\.r\.create_date.*knows only name, id, arn, unique_id/);
  });

  it("explains a missing stack file", () => {
    expect(() => loadStackFile(join(dir, "nope.json"))).toThrow(StackFileError);
    expect(() => loadStackFile(join(dir, "nope.json"))).toThrow(/npm run synth/);
  });
});
