import { GuardedAction, queuePolicyDocument } from "@effectively-once/contract";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { DLQ, QUEUE, plan, queue, update, type FixtureResource } from "./support/plan-fixtures";

const DLQ_POLICY = "aws_sqs_queue_policy.dlq";
const DLQ_ARN = "arn:aws:sqs:us-east-1:000000000000:p-dlq";
const DLQ_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/p-dlq";
const guarded = queuePolicyDocument(DLQ_ARN, [GuardedAction.NativeMove, GuardedAction.Purge])!;

/** The source queue redriving into the DLQ, both known (a state), plus what the test adds. */
const queues: FixtureResource[] = [update(QUEUE, queue(), queue()), update(DLQ, queue({ name: "p-dlq", redrive_policy: null }), queue({ name: "p-dlq", redrive_policy: null }))];
const policy = (before: string | null, after: string | null, actions: string[]): FixtureResource => ({
  address: DLQ_POLICY,
  actions,
  before: before === null ? null : { queue_url: DLQ_URL, policy: before },
  after: after === null ? null : { queue_url: DLQ_URL, policy: after },
});

function guardRisks(resources: readonly FixtureResource[], basis: ActionBasis = ActionBasis.RealState): RiskFlag[] {
  return buildReview(plan(resources), { basis }).risks.filter((r) => r.kind === RiskKind.DlqNativeMovesAllowed || r.kind === RiskKind.DlqPurgeAllowed);
}
const summary = (flags: readonly RiskFlag[]) => flags.map((f) => [f.kind, f.severity, f.address]);

describe("Rule: the DLQ refuses SQS's own redrive and purges (via buildReview)", () => {
  it("stays silent when the DLQ's queue policy denies both to every principal", () => {
    expect(guardRisks([...queues, policy(guarded, guarded, ["no-op"])])).toEqual([]);
  });

  it("flags a plan with no policy on the DLQ (an empty-state plan of a stack that opts out): high for moves, medium for purges", () => {
    const created: FixtureResource[] = [
      { address: QUEUE, actions: ["create"], after: queue({ redrive_policy: null }), unknown: { redrive_policy: true }, expressions: { redrive_policy: { constant_value: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}', references: ["aws_sqs_queue.dlq.arn", "aws_sqs_queue.dlq"] } } },
      { address: DLQ, actions: ["create"], after: queue({ name: "p-dlq", redrive_policy: null }), unknown: { arn: true, url: true } },
    ];
    const flags = guardRisks(created, ActionBasis.EmptyState);
    expect(summary(flags)).toEqual([
      [RiskKind.DlqNativeMovesAllowed, Severity.High, DLQ],
      [RiskKind.DlqPurgeAllowed, Severity.Medium, DLQ],
    ]);
    expect(flags[0].message).toContain('the SQS console\'s "Start DLQ redrive" can move its messages past every check of `pipeline-ops dlq redrive`');
  });

  it("reads a planned policy linked by reference to the DLQ (URL and ARN unknown until apply)", () => {
    const template = queuePolicyDocument("${aws_sqs_queue.dlq.arn}", [GuardedAction.NativeMove])!;
    const created: FixtureResource[] = [
      { address: QUEUE, actions: ["create"], after: queue({ redrive_policy: null }), unknown: { redrive_policy: true }, expressions: { redrive_policy: { constant_value: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}', references: ["aws_sqs_queue.dlq.arn", "aws_sqs_queue.dlq"] } } },
      { address: DLQ, actions: ["create"], after: queue({ name: "p-dlq", redrive_policy: null }), unknown: { arn: true, url: true } },
      {
        address: DLQ_POLICY,
        actions: ["create"],
        after: { queue_url: null, policy: null },
        unknown: { queue_url: true, policy: true },
        expressions: { queue_url: { constant_value: "${aws_sqs_queue.dlq.url}", references: ["aws_sqs_queue.dlq.url", "aws_sqs_queue.dlq"] }, policy: { constant_value: template, references: ["aws_sqs_queue.dlq.arn", "aws_sqs_queue.dlq"] } },
      },
    ];
    expect(summary(guardRisks(created, ActionBasis.EmptyState))).toEqual([[RiskKind.DlqPurgeAllowed, Severity.Medium, DLQ]]);
  });

  it("flags the policy's removal as high", () => {
    expect(summary(guardRisks([...queues, policy(guarded, null, ["delete"])]))).toEqual([
      [RiskKind.DlqNativeMovesAllowed, Severity.High, DLQ],
      [RiskKind.DlqPurgeAllowed, Severity.Medium, DLQ],
    ]);
  });

  it("flags a policy changed to allow moves as high", () => {
    const allowing = JSON.stringify({ Version: "2012-10-17", Statement: [{ Effect: "Allow", Principal: { AWS: "arn:aws:iam::000000000000:root" }, Action: "sqs:*", Resource: DLQ_ARN }] });
    expect(summary(guardRisks([...queues, policy(guarded, allowing, ["update"])]))[0]).toEqual([RiskKind.DlqNativeMovesAllowed, Severity.High, DLQ]);
  });

  it("keeps a DLQ that already allowed moves at medium: the plan loosens nothing", () => {
    expect(summary(guardRisks(queues))).toEqual([
      [RiskKind.DlqNativeMovesAllowed, Severity.Medium, DLQ],
      [RiskKind.DlqPurgeAllowed, Severity.Medium, DLQ],
    ]);
  });
});
