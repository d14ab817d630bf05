import { GuardedAction, queuePolicyDocument } from "@effectively-once/contract";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type ResourceFacts, type RiskFlag } from "../../src/terraform/review/types";
import { DLQ, QUEUE, plan, queue, update, type FixtureResource } from "./support/plan-fixtures";

/**
 * The queues' one Policy each, judged per source (hand-written `terraform show -json` plans, as Terraform prints
 * them: an online plan's `before` is the refreshed live attribute). The offline and two-source cases on a real
 * synthesized stack and the real terraform are in terraform-plan-queue-policy.test.ts.
 */
const QUEUE_ARN = "arn:aws:sqs:us-east-1:000000000000:p-queue";
const QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/p-queue";
const DLQ_ARN = "arn:aws:sqs:us-east-1:000000000000:p-dlq";
const DLQ_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/p-dlq";
const QUEUE_POLICY = "aws_sqs_queue_policy.queue";

const doc = (...statements: unknown[]) => JSON.stringify({ Version: "2012-10-17", Statement: statements });
const purgeDeny = { Sid: "RefusePurge", Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: QUEUE_ARN };
/** What the SQS console's "Subscribe to Amazon SNS topic" adds (no Sid in the form AWS normalises it to). */
const consoleSnsGrant = { Effect: "Allow", Principal: { Service: "sns.amazonaws.com" }, Action: "sqs:SendMessage", Resource: QUEUE_ARN, Condition: { ArnEquals: { "aws:SourceArn": "arn:aws:sns:us-east-1:111122223333:orders" } } };
const partnerGrant = { Sid: "Partner", Effect: "Allow", Principal: { AWS: "arn:aws:iam::777788889999:root" }, Action: "sqs:SendMessage", Resource: QUEUE_ARN };

const queues = (queuePolicy: string | null = null): FixtureResource[] => [
  update(QUEUE, queue({ policy: queuePolicy }), queue({ policy: queuePolicy })),
  update(DLQ, queue({ name: "p-dlq", redrive_policy: null }), queue({ name: "p-dlq", redrive_policy: null })),
];
const policyOn = (address: string, url: string, before: string | null, after: string | null, actions: string[]): FixtureResource => ({
  address,
  actions,
  before: before === null ? null : { queue_url: url, policy: before },
  after: after === null ? null : { queue_url: url, policy: after },
});

function flags(resources: readonly FixtureResource[], basis: ActionBasis, baseline?: readonly ResourceFacts[]): RiskFlag[] {
  const kinds = new Set<string>([RiskKind.QueuePolicySources, RiskKind.QueuePolicyDropsStatements, RiskKind.QueuePolicyReplacesLive]);
  return buildReview(plan(resources), { basis, ...(baseline ? { baseline: { label: "base", resources: baseline } } : {}) }).risks.filter((r) => kinds.has(r.kind));
}
const summary = (found: readonly RiskFlag[]) => found.map((f) => [f.kind, f.severity, f.address]);

describe("Rule: online, a queue policy write may not drop statements of the live policy", () => {
  it("flags the create of the construct's policy on a queue whose live policy holds a console SNS grant, naming the statement and the fix", () => {
    const found = flags([...queues(doc(consoleSnsGrant)), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny), ["create"])], ActionBasis.RealState);
    expect(summary(found)).toEqual([[RiskKind.QueuePolicyDropsStatements, Severity.High, QUEUE_POLICY]]);
    expect(found[0].message).toContain('leaves out 1 statement of the live one: (no Sid): Allow Service sns.amazonaws.com sqs:SendMessage from arn:aws:sns:us-east-1:111122223333:orders');
    expect(found[0].message).toContain("SNS drops the delivery");
    expect(found[0].message).toContain("`queueAccess` prop");
  });

  it("flags an update that leaves out a statement someone added to the live policy, and names it by Sid", () => {
    const found = flags([...queues(), policyOn(QUEUE_POLICY, QUEUE_URL, doc(purgeDeny, partnerGrant), doc(purgeDeny), ["update"])], ActionBasis.RealState);
    expect(summary(found)).toEqual([[RiskKind.QueuePolicyDropsStatements, Severity.High, QUEUE_POLICY]]);
    expect(found[0].message).toContain('"Partner": Allow AWS arn:aws:iam::777788889999:root sqs:SendMessage');
  });

  it("stays silent when the new policy keeps every live statement (declared through queueAccess: its own Sid, aws:SourceAccount added)", () => {
    const declared = {
      Sid: "AllowSnsTopics1",
      ...consoleSnsGrant,
      Resource: "${aws_sqs_queue.queue.arn}",
      Condition: { ArnEquals: { "aws:SourceArn": ["arn:aws:sns:us-east-1:111122223333:orders"] }, StringEquals: { "aws:SourceAccount": "111122223333" } },
    };
    expect(flags([...queues(doc(consoleSnsGrant)), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny, declared), ["create"])], ActionBasis.RealState)).toEqual([]);
    expect(flags([...queues(), policyOn(QUEUE_POLICY, QUEUE_URL, doc(purgeDeny, partnerGrant), doc(purgeDeny, partnerGrant), ["no-op"])], ActionBasis.RealState)).toEqual([]);
  });

  it("does not count a narrower grant as keeping the live one (another topic, or a condition beyond the source)", () => {
    const otherTopic = { ...consoleSnsGrant, Condition: { ArnEquals: { "aws:SourceArn": "arn:aws:sns:us-east-1:111122223333:audit" } } };
    const orgOnly = { ...consoleSnsGrant, Condition: { ...consoleSnsGrant.Condition, StringEquals: { "aws:PrincipalOrgID": "o-a1b2c3d4e5" } } };
    for (const written of [otherTopic, orgOnly]) {
      expect(summary(flags([...queues(doc(consoleSnsGrant)), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny, written), ["create"])], ActionBasis.RealState))).toEqual([
        [RiskKind.QueuePolicyDropsStatements, Severity.High, QUEUE_POLICY],
      ]);
    }
  });
});

describe("Rule: offline, a policy created for a queue the baseline has overwrites a live policy the plan cannot read", () => {
  const baseline: ResourceFacts[] = [QUEUE, DLQ].map((address) => ({ address, type: "aws_sqs_queue", service: "SQS", name: null, action: "create" }));

  it("flags it high, saying statements set outside Terraform will be removed", () => {
    const found = flags([...queues(), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny), ["create"])], ActionBasis.EmptyState, baseline);
    expect(summary(found)).toEqual([[RiskKind.QueuePolicyReplacesLive, Severity.High, QUEUE_POLICY]]);
    expect(found[0].message).toContain("any statement set outside Terraform");
  });

  it("does not flag a policy the baseline already had, nor one without a baseline (nothing known of the queue)", () => {
    const withPolicy: ResourceFacts[] = [...baseline, { address: QUEUE_POLICY, type: "aws_sqs_queue_policy", service: "SQS", name: null, action: "create" }];
    expect(flags([...queues(), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny), ["create"])], ActionBasis.EmptyState, withPolicy)).toEqual([]);
    expect(flags([...queues(), policyOn(QUEUE_POLICY, QUEUE_URL, null, doc(purgeDeny), ["create"])], ActionBasis.EmptyState)).toEqual([]);
  });
});

describe("Rule: one queue, one policy source; each source judged alone", () => {
  const guarded = queuePolicyDocument(DLQ_ARN, [GuardedAction.NativeMove, GuardedAction.Purge])!;
  const opsReads = doc({ Sid: "OpsReadsDlq", Effect: "Allow", Principal: { AWS: "arn:aws:iam::999988887777:root" }, Action: ["sqs:ReceiveMessage"], Resource: DLQ_ARN });
  const dlqPolicies = [policyOn("aws_sqs_queue_policy.dlq", DLQ_URL, guarded, guarded, ["no-op"]), policyOn("aws_sqs_queue_policy.ops", DLQ_URL, null, opsReads, ["create"])];

  it("flags two aws_sqs_queue_policy on the DLQ as high, and the DLQ as unguarded: the team's policy alone refuses nothing", () => {
    const review = buildReview(plan([...queues(), ...dlqPolicies]), { basis: ActionBasis.RealState });
    const kinds = review.risks.map((r) => [r.kind, r.severity, r.address]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        [RiskKind.QueuePolicySources, Severity.High, DLQ],
        [RiskKind.DlqNativeMovesAllowed, Severity.High, DLQ],
        [RiskKind.DlqPurgeAllowed, Severity.Medium, DLQ],
      ]),
    );
    expect(review.risks.find((r) => r.kind === RiskKind.QueuePolicySources)?.message).toContain("aws_sqs_queue_policy.dlq, aws_sqs_queue_policy.ops");
  });

  it("counts the queue's own policy argument as a second source only when the configuration sets it", () => {
    const inline = update(DLQ, queue({ name: "p-dlq", redrive_policy: null, policy: opsReads }), queue({ name: "p-dlq", redrive_policy: null, policy: opsReads }));
    const configured: FixtureResource = { ...inline, expressions: { policy: { constant_value: opsReads } } };
    const base = [queues()[0], policyOn("aws_sqs_queue_policy.dlq", DLQ_URL, guarded, guarded, ["no-op"])];
    expect(summary(flags([...base, inline], ActionBasis.RealState))).toEqual([]);
    expect(summary(flags([...base, configured], ActionBasis.RealState))).toEqual([[RiskKind.QueuePolicySources, Severity.High, DLQ]]);
  });
});
