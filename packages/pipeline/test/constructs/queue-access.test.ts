import { queueGuardOf } from "@effectively-once/contract";
import { referenceTo, resourcesOfType, type SynthesizedStack, type TerraformJson } from "@effectively-once/testing";
import { errorOf, synthStack } from "@effectively-once/testing/stack";
import type { PipelineOverrides } from "../../src/app/pipeline-app";
import { ProducerKind, type QueuePolicyStatement } from "../../src/constructs";
import { build } from "./support/build";

/** Each queue policy's document by the queue it belongs to (`test-queue`, `test-dlq`). */
function policies(json: TerraformJson): Map<string, { Statement: Record<string, unknown>[] }> {
  const byUrl = new Map(resourcesOfType(json, "aws_sqs_queue_policy").map(([, body]) => [body.queue_url as string, JSON.parse(body.policy as string)]));
  return new Map(["test-queue", "test-dlq"].flatMap((suffix) => {
    const found = byUrl.get(referenceTo(json, "aws_sqs_queue", suffix, "url"));
    return found ? [[suffix, found] as const] : [];
  }));
}

const TOPIC = "arn:aws:sns:us-east-1:111122223333:orders";
const RULE = "arn:aws:events:us-east-1:444455556666:rule/orders-to-queue";
const BUCKET = "arn:aws:s3:::orders-uploads";
const PARTNER = "arn:aws:iam::777788889999:role/partner-producer";
const OPS_READS_DLQ: QueuePolicyStatement = { Sid: "OpsReadsDlq", Effect: "Allow", Principal: { AWS: ["arn:aws:iam::999988887777:role/ops"] }, Action: ["sqs:ReceiveMessage", "sqs:GetQueueAttributes"] };

const DECLARED: PipelineOverrides = {
  queueAccess: {
    producers: [
      { kind: ProducerKind.SnsTopic, arn: TOPIC },
      { kind: ProducerKind.EventBridgeRule, arn: RULE },
      { kind: ProducerKind.S3Bucket, arn: BUCKET, account: "222233334444" },
      { kind: ProducerKind.AwsPrincipal, principal: PARTNER },
    ],
    deadLetterQueueStatements: [OPS_READS_DLQ],
  },
};

describe("Construct: IdempotentPipeline's queueAccess", () => {
  describe("with producers and a DLQ grant declared", () => {
    let stack: SynthesizedStack;
    beforeAll(() => {
      stack = synthStack(DECLARED);
    });
    afterAll(() => stack.cleanup());

    it("renders every producer into the source queue's one policy, after the purge Deny, with aws:SourceArn and aws:SourceAccount", () => {
      const arn = referenceTo(stack.json, "aws_sqs_queue", "test-queue", "arn");
      expect(resourcesOfType(stack.json, "aws_sqs_queue_policy")).toHaveLength(2);
      expect(policies(stack.json).get("test-queue")?.Statement).toEqual([
        { Sid: "RefusePurge", Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: arn },
        { Sid: "AllowSnsTopics1", Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: arn, Condition: { ArnEquals: { "aws:SourceArn": TOPIC }, StringEquals: { "aws:SourceAccount": "111122223333" } } },
        { Sid: "AllowEventBridgeRules1", Effect: "Allow", Principal: { Service: "events.amazonaws.com" }, Action: "sqs:SendMessage", Resource: arn, Condition: { ArnEquals: { "aws:SourceArn": RULE }, StringEquals: { "aws:SourceAccount": "444455556666" } } },
        { Sid: "AllowS3Buckets1", Effect: "Allow", Principal: { Service: "s3.amazonaws.com" }, Action: "sqs:SendMessage", Resource: arn, Condition: { ArnLike: { "aws:SourceArn": BUCKET }, StringEquals: { "aws:SourceAccount": "222233334444" } } },
        { Sid: "AllowProducerPrincipals", Effect: "Allow", Principal: { AWS: PARTNER }, Action: "sqs:SendMessage", Resource: arn },
      ]);
    });

    it("keeps the DLQ's Deny statements first and appends the team's statement with the DLQ as its Resource", () => {
      const dlq = policies(stack.json).get("test-dlq");
      const arn = referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "arn");
      expect(dlq?.Statement.map((s) => s.Sid)).toEqual(["RefuseNativeMessageMoves", "RefusePurge", "OpsReadsDlq"]);
      expect(dlq?.Statement[2]).toEqual({ ...OPS_READS_DLQ, Action: OPS_READS_DLQ.Action, Resource: arn });
      const guard = queueGuardOf(JSON.stringify(dlq));
      expect([guard.nativeMoves.refused, guard.purge.refused]).toEqual([true, true]);
    });
  });

  it("groups service producers by owning account, one statement each", () => {
    const stack = synthStack({ queueAccess: { producers: [{ kind: ProducerKind.SnsTopic, arn: TOPIC }, { kind: ProducerKind.SnsTopic, arn: `${TOPIC}-eu` }, { kind: ProducerKind.SnsTopic, arn: "arn:aws:sns:us-east-1:222233334444:audit" }] } });
    try {
      const statements = policies(stack.json).get("test-queue")!.Statement.slice(1);
      expect(statements.map((s) => [s.Sid, s.Condition])).toEqual([
        ["AllowSnsTopics1", { ArnEquals: { "aws:SourceArn": [TOPIC, `${TOPIC}-eu`] }, StringEquals: { "aws:SourceAccount": "111122223333" } }],
        ["AllowSnsTopics2", { ArnEquals: { "aws:SourceArn": "arn:aws:sns:us-east-1:222233334444:audit" }, StringEquals: { "aws:SourceAccount": "222233334444" } }],
      ]);
    } finally {
      stack.cleanup();
    }
  });

  it("writes a policy for the producers even when both Deny opt-outs leave nothing to refuse", () => {
    const stack = synthStack({ allowQueuePurge: true, allowUnguardedDlqMoves: true, queueAccess: { producers: [{ kind: ProducerKind.AwsPrincipal, principal: "777788889999" }] } });
    try {
      const found = policies(stack.json);
      expect([...found.keys()]).toEqual(["test-queue"]);
      expect(found.get("test-queue")?.Statement.map((s) => s.Sid)).toEqual(["AllowProducerPrincipals"]);
    } finally {
      stack.cleanup();
    }
  });
});

const statement = (extra: Partial<QueuePolicyStatement>): QueuePolicyStatement => ({ ...OPS_READS_DLQ, ...extra });
const dlqStatements = (...s: QueuePolicyStatement[]): PipelineOverrides => ({ queueAccess: { deadLetterQueueStatements: s } });
const sourceStatements = (...s: QueuePolicyStatement[]): PipelineOverrides => ({ queueAccess: { sourceQueueStatements: s } });

describe("Synth refuses a queueAccess that is malformed or would weaken the construct's Deny", () => {
  it.each<[string, PipelineOverrides, string, RegExp]>([
    ["an SNS producer whose ARN is not a topic's", { queueAccess: { producers: [{ kind: ProducerKind.SnsTopic, arn: "arn:aws:sqs:us-east-1:111122223333:orders" }] } }, "queueAccess.producers[0].arn", /not the ARN of an SNS topic.*arn:aws:sns:/],
    ["a producer account other than its ARN's", { queueAccess: { producers: [{ kind: ProducerKind.EventBridgeRule, arn: RULE, account: "111122223333" }] } }, "queueAccess.producers[0].account", /differs from the account in its ARN \(444455556666\)/],
    ["a bucket given by ARN without its owner's account", { queueAccess: { producers: [{ kind: ProducerKind.S3Bucket, arn: BUCKET }] } }, "queueAccess.producers[0].account", /is missing: a bucket's ARN names no account/],
    ["a bucket owner that is not an account id", { queueAccess: { producers: [{ kind: ProducerKind.S3Bucket, arn: BUCKET, account: "orders" }] } }, "queueAccess.producers[0].account", /not an account id \(12 digits\)/],
    ["a principal producer that is neither account nor role", { queueAccess: { producers: [{ kind: ProducerKind.AwsPrincipal, principal: "partner" }] } }, "queueAccess.producers[0].principal", /not an account id.*role/],
    ["a statement reusing the construct's Sid", dlqStatements(statement({ Sid: "RefusePurge" })), "queueAccess.deadLetterQueueStatements[0].Sid", /construct writes itself; yours would shadow it/],
    ["a statement using a producer statement's Sid", sourceStatements(statement({ Sid: "AllowSnsTopics1" })), "queueAccess.sourceQueueStatements[0].Sid", /construct writes itself/],
    ["two statements with one Sid", dlqStatements(statement({}), statement({})), "queueAccess.deadLetterQueueStatements[1].Sid", /used by another statement/],
    ["a Sid IAM refuses", dlqStatements(statement({ Sid: "ops-reads" })), "queueAccess.deadLetterQueueStatements[0].Sid", /ASCII letters and digits/],
    ["an Allow of sqs:* on the DLQ (covers the denied redrive and purge)", dlqStatements(statement({ Action: ["sqs:*"] })), "queueAccess.deadLetterQueueStatements[0].Action", /allows sqs:StartMessageMoveTask and sqs:PurgeQueue, which the construct denies/],
    ["an Allow of sqs:PurgeQueue on the source queue", sourceStatements(statement({ Action: ["sqs:PurgeQueue"] })), "queueAccess.sourceQueueStatements[0].Action", /allows sqs:PurgeQueue/],
    ["a Deny of what producers send", sourceStatements(statement({ Effect: "Deny", Action: ["sqs:Send*"] })), "queueAccess.sourceQueueStatements[0].Action", /denies sqs:SendMessage, which producers/],
    ["an action of another service", dlqStatements(statement({ Action: ["s3:GetObject"] })), "queueAccess.deadLetterQueueStatements[0].Action", /not an SQS action/],
    ["a misspelt SQS action", dlqStatements(statement({ Action: ["sqs:RecieveMessage"] })), "queueAccess.deadLetterQueueStatements[0].Action", /not an SQS action/],
    ["eight actions in one statement", dlqStatements(statement({ Action: ["sqs:ReceiveMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:ListQueueTags", "sqs:ListDeadLetterSourceQueues", "sqs:ListMessageMoveTasks", "sqs:ListQueues", "sqs:DeleteMessage"] })), "queueAccess.deadLetterQueueStatements[0].Action", /8 actions; SQS takes at most 7 per statement/],
    ["an Allow to everyone without a condition", dlqStatements(statement({ Principal: "*" })), "queueAccess.deadLetterQueueStatements[0].Principal", /opens the queue to every AWS account/],
    ["a Resource of its own", dlqStatements({ ...statement({}), Resource: "*" } as never), "queueAccess.deadLetterQueueStatements[0].Resource", /Resource is always the queue itself/],
    ["a service principal that is not one", dlqStatements(statement({ Principal: { Service: "sns" } })), "queueAccess.deadLetterQueueStatements[0].Principal", /not a service principal/],
  ])("refuses %s, naming the prop, the value and the fix", (_case, overrides, prop, message) => {
    const error = errorOf(build(overrides));
    expect(error.problems.map((p) => p.prop)).toContain(prop);
    expect(error.message).toMatch(/Fix: /);
    expect(error.message).toMatch(message);
  });

  it("accepts a conditional Allow to everyone, wildcard reads and another account's Deny of an unused action", () => {
    const orgOnly = statement({ Sid: "OrgReads", Principal: "*", Action: ["sqs:Get*", "sqs:ReceiveMessage"], Condition: { StringEquals: { "aws:PrincipalOrgID": "o-a1b2c3d4e5" } } });
    expect(build(dlqStatements(orgOnly, statement({ Sid: "NoPermissionEdits", Effect: "Deny", Principal: "*", Action: ["sqs:AddPermission", "sqs:RemovePermission"] })))).not.toThrow();
  });
});

describe("Synth refuses a queue policy over SQS's quotas, with the arithmetic", () => {
  const topicsOfAccounts = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: ProducerKind.SnsTopic, arn: `arn:aws:sns:us-east-1:${String(100000000000 + i)}:orders` }));

  it("conditions: six SNS producers of six accounts make 12 condition keys, over SQS's 10", () => {
    const error = errorOf(build({ queueAccess: { producers: topicsOfAccounts(6) } }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "queueAccess (producers, sourceQueueStatements)", value: "source queue test-queue: 12 conditions" })]);
    expect(error.message).toMatch(/over SQS's 10: 12 − 10 = 2 too many.*quotas-policies\.html/);
    expect(build({ queueAccess: { producers: topicsOfAccounts(5) } })).not.toThrow();
  });

  it("statements: the DLQ's 2 Deny statements and 19 of the team's make 21, over 20", () => {
    const many = Array.from({ length: 19 }, (_, i) => statement({ Sid: `Ops${i}` }));
    const error = errorOf(build(dlqStatements(...many)));
    expect(error.problems.map((p) => p.value)).toEqual(["dead-letter queue test-dlq: 21 statements"]);
    expect(error.message).toMatch(/21 statements \(2 the construct's \(Deny and producers\) \+ 19 yours\), over SQS's 20: 21 − 20 = 1 too many/);
    expect(build(dlqStatements(...many.slice(1)))).not.toThrow();
  });

  it("bytes: long role ARNs past 8,192 bytes of policy, counted with the queue's ARN at its longest", () => {
    const role = (i: number) => `arn:aws:iam::111122223333:role/${"team/".repeat(30)}reader-${String(i).padStart(2, "0")}`;
    const error = errorOf(build(dlqStatements(statement({ Principal: { AWS: Array.from({ length: 45 }, (_, i) => role(i)) } }))));
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0].value).toMatch(/^dead-letter queue test-dlq: \d{4,} bytes$/);
    expect(error.message).toMatch(/over SQS's 8192: \d+ − 8192 = \d+ too many/);
  });

  it("principals: 51 producer principals and the Deny's \"*\", over 50", () => {
    const producers = Array.from({ length: 51 }, (_, i) => ({ kind: ProducerKind.AwsPrincipal, principal: String(200000000000 + i) }));
    expect(errorOf(build({ queueAccess: { producers } })).problems.map((p) => p.value)).toEqual(["source queue test-queue: 52 principals"]);
    expect(build({ queueAccess: { producers: producers.slice(2) } })).not.toThrow();
  });
});
