/**
 * The `encryption` prop: one customer managed key on every store of the pipeline (queues, tables, log groups, state
 * machine, the function's environment), each role allowed only the KMS calls its services make with it, and the
 * combinations AWS would break refused at synth.
 */
import { ProducerKind } from "../../src/constructs";
import { keyProducerProblems } from "../../src/constructs/encryption-rules";
import { resourceNamed, resourcesOfType, type SynthesizedStack, TEST_STACK } from "@effectively-once/testing";
import { errorOf, synthStack } from "@effectively-once/testing/stack";

const KEY = "arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab";


type Statement = { Sid?: string; Action: string[]; Resource: string[]; Condition?: Record<string, Record<string, unknown>> };
const kmsStatements = (stack: SynthesizedStack, roleSuffix: string): Statement[] => {
  const policies = resourcesOfType(stack.json, "aws_iam_role_policy").map(([, p]) => p);
  const roleId = resourcesOfType(stack.json, "aws_iam_role").find(([, r]) => (r.name as string).endsWith(roleSuffix))![0];
  const policy = policies.find((p) => p.role === `\${aws_iam_role.${roleId}.id}`)!;
  return (JSON.parse(policy.policy as string).Statement as Statement[]).filter((s) => s.Action.some((a) => a.startsWith("kms:")));
};

describe("Prop: encryption (a customer managed KMS key)", () => {
  let stack: SynthesizedStack;
  let plain: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack({ encryption: { kmsKeyArn: KEY, dataKeyReuseSeconds: 600 } });
    plain = synthStack();
  });
  afterAll(() => {
    stack.cleanup();
    plain.cleanup();
  });

  it("puts both queues under the key (SSE-KMS with the reuse period), without SQS-managed SSE", () => {
    for (const [, queue] of resourcesOfType(stack.json, "aws_sqs_queue")) {
      expect(queue).toMatchObject({ kms_master_key_id: KEY, kms_data_key_reuse_period_seconds: 600 });
      expect(queue.sqs_managed_sse_enabled).toBeUndefined();
    }
    expect(resourcesOfType(plain.json, "aws_sqs_queue").map(([, q]) => [q.sqs_managed_sse_enabled, q.kms_master_key_id])).toEqual([[true, undefined], [true, undefined]]);
  });

  it("puts the ledger, the idempotency table and the effect journal under the key", () => {
    const tables = resourcesOfType(stack.json, "aws_dynamodb_table");
    expect(tables).toHaveLength(3);
    for (const [, table] of tables) expect(table.server_side_encryption).toEqual({ enabled: true, kms_key_arn: KEY });
    for (const [, table] of resourcesOfType(plain.json, "aws_dynamodb_table")) expect(table.server_side_encryption).toEqual({ enabled: true });
  });

  it("puts the three log groups, the state machine and the function's environment under the key", () => {
    expect(resourcesOfType(stack.json, "aws_cloudwatch_log_group").map(([, g]) => g.kms_key_id)).toEqual([KEY, KEY, KEY]);
    expect(resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").encryption_configuration).toEqual({ type: "CUSTOMER_MANAGED_KMS_KEY", kms_key_id: KEY, kms_data_key_reuse_period_seconds: 600 });
    expect(resourceNamed(stack.json, "aws_lambda_function", "test-charge").kms_key_arn).toBe(KEY);
    expect(resourceNamed(plain.json, "aws_sfn_state_machine", "test-workflow").encryption_configuration).toBeUndefined();
    expect(resourceNamed(plain.json, "aws_lambda_function", "test-charge").kms_key_arn).toBeUndefined();
  });

  it("allows each role only the KMS calls its services make, on the key only, through those services", () => {
    // The pipeline's own data sources (the effect journal has its own pair).
    const regionId = Object.keys(stack.json.data!.aws_region).find((id) => id.startsWith("pipeline_"));
    const partitionId = Object.keys(stack.json.data!.aws_partition).find((id) => id.startsWith("pipeline_"));
    const via = (service: string) => `${service}.\${data.aws_region.${regionId}.name}.\${data.aws_partition.${partitionId}.dns_suffix}`;
    expect(kmsStatements(stack, "pipe-us-east-1-role")).toEqual([{ Sid: "DecryptSource", Effect: "Allow", Action: ["kms:Decrypt"], Resource: [KEY], Condition: { StringEquals: { "kms:ViaService": [via("sqs")] } } }]);
    const workflow = kmsStatements(stack, "workflow-us-east-1-role");
    expect(workflow.map((s) => s.Condition)).toEqual([
      { StringEquals: { "kms:ViaService": [via("dynamodb"), via("sqs")] } },
      { StringEquals: { "kms:EncryptionContext:aws:states:stateMachineArn": expect.stringMatching(/:states:.*:stateMachine:test-workflow$/) } },
    ]);
    const fn = kmsStatements(stack, "charge-us-east-1-role");
    expect(fn.map((s) => [s.Sid, s.Action, s.Condition])).toEqual([
      ["EffectJournalKey", ["kms:Decrypt", "kms:GenerateDataKey"], { StringEquals: { "kms:ViaService": [expect.stringContaining("dynamodb.")] } }],
      ["KeyForIdempotencyRecords", ["kms:Decrypt", "kms:GenerateDataKey"], { StringEquals: { "kms:ViaService": [via("dynamodb")] } }],
      ["KeyForEnvironment", ["kms:Decrypt"], { StringEquals: { "kms:ViaService": [via("lambda")] } }],
    ]);
    for (const s of [...workflow, ...fn]) expect(s.Resource).toEqual([KEY]);
    expect([...kmsStatements(plain, "pipe-us-east-1-role"), ...kmsStatements(plain, "workflow-us-east-1-role"), ...kmsStatements(plain, "charge-us-east-1-role")]).toEqual([]);
  });

  it.each([
    ["an alias ARN", { kmsKeyArn: "arn:aws:kms:us-east-1:111122223333:alias/pipeline" }, "encryption.kmsKeyArn", "is not a KMS key ARN"],
    ["a bare key id", { kmsKeyArn: "1234abcd-12ab-34cd-56ef-1234567890ab" }, "encryption.kmsKeyArn", "is not a KMS key ARN"],
    ["a key of another region", { kmsKeyArn: KEY.replace("us-east-1", "eu-west-1") }, "encryption.kmsKeyArn", "is a key in eu-west-1"],
    ["a reuse period Step Functions refuses", { kmsKeyArn: KEY, dataKeyReuseSeconds: 3600 }, "encryption.dataKeyReuseSeconds", "must be a whole number from 60 to 900"],
  ])("refuses %s, naming the prop, the value and the fix", (_what, encryption, prop, reason) => {
    const error = errorOf(() => synthStack({ encryption }));
    expect(error.problems).toEqual([expect.objectContaining({ prop, reason: expect.stringContaining(reason) })]);
  });

  it("refuses a key of another partition (a China stack with a key of partition aws)", () => {
    const error = errorOf(() => synthStack({ encryption: { kmsKeyArn: KEY }, tracing: false }, { ...TEST_STACK, region: "cn-north-1" }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "encryption.kmsKeyArn", reason: expect.stringContaining('partition "aws"), but the stack deploys to cn-north-1') })]);
  });
});

describe("Rule: a customer managed key locks out service producers of the source queue", () => {
  const key = { kmsKeyArn: KEY, dataKeyReuseSeconds: 300 };
  const sns = { Sid: "FromTopic", Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: "*" };
  const role = { Sid: "FromRole", Effect: "Allow", Principal: { AWS: "arn:aws:iam::111122223333:role/producer" }, Action: "sqs:SendMessage", Resource: "*" };

  it("refuses the key with a producer whose principal is a service, naming the services", () => {
    const events = { ...sns, Principal: { Service: ["events.amazonaws.com", "s3.amazonaws.com"] } };
    expect(keyProducerProblems(key, [sns, role, events])).toEqual([
      expect.objectContaining({ prop: "encryption.kmsKeyArn", value: KEY, reason: expect.stringContaining("sns.amazonaws.com, events.amazonaws.com, s3.amazonaws.com deliver") }),
    ]);
  });

  it("refuses at synth the key with an SNS producer declared in queueAccess, and accepts it with a role producer", () => {
    const error = errorOf(() =>
      synthStack({ encryption: { kmsKeyArn: KEY }, queueAccess: { producers: [{ kind: ProducerKind.SnsTopic, arn: "arn:aws:sns:us-east-1:111122223333:orders" }] } }),
    );
    expect(error.problems).toEqual([expect.objectContaining({ prop: "encryption.kmsKeyArn", reason: expect.stringContaining("the service principal sns.amazonaws.com delivers"), fix: expect.stringContaining("queueAccess") })]);
    const roles = synthStack({ encryption: { kmsKeyArn: KEY }, queueAccess: { producers: [{ kind: ProducerKind.AwsPrincipal, principal: "arn:aws:iam::111122223333:role/orders" }] } });
    try {
      expect(resourcesOfType(roles.json, "aws_sqs_queue").map(([, q]) => q.kms_master_key_id)).toEqual([KEY, KEY]);
    } finally {
      roles.cleanup();
    }
  });

  it("accepts role producers with the key, and service producers without it", () => {
    expect(keyProducerProblems(key, [role])).toEqual([]);
    expect(keyProducerProblems(undefined, [sns])).toEqual([]);
  });
});
