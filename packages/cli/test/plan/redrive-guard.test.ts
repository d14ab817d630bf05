import { SOURCE_QUEUE_REDRIVE_ALLOW_POLICY } from "@effectively-once/contract";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { DLQ, QUEUE, plan, queue, update, type FixtureResource } from "./support/plan-fixtures";

const ALLOW = "aws_sqs_queue_redrive_allow_policy.queue";
const QUEUE_URL = "https://sqs.us-east-1.amazonaws.com/000000000000/p-queue";
const DENY_ALL = JSON.stringify(SOURCE_QUEUE_REDRIVE_ALLOW_POLICY);
const TEMPORARY_ARN = "arn:aws:sqs:us-east-1:000000000000:p-temporary";

const allow = (before: string | null, after: string | null, actions: string[]): FixtureResource => ({
  address: ALLOW,
  actions,
  before: before === null ? null : { queue_url: QUEUE_URL, redrive_allow_policy: before },
  after: after === null ? null : { queue_url: QUEUE_URL, redrive_allow_policy: after },
});
/** The source queue redriving into the DLQ, both known (a state); the DLQ with the redrive policy given. */
const queues = (dlqRedrive: string | null = null): FixtureResource[] => [
  update(QUEUE, queue(), queue()),
  update(DLQ, queue({ name: "p-dlq", redrive_policy: null }), queue({ name: "p-dlq", redrive_policy: dlqRedrive })),
];

function redriveRisks(resources: readonly FixtureResource[]): RiskFlag[] {
  return buildReview(plan(resources), { basis: ActionBasis.RealState }).risks.filter((r) => r.kind === RiskKind.SourceQueueRedriveAllowed || r.kind === RiskKind.DlqRedrivePolicy);
}
const summary = (flags: readonly RiskFlag[]) => flags.map((f) => [f.kind, f.severity, f.address]);

describe("Rule: no redrive policy can move a quarantined copy back (via buildReview)", () => {
  it("stays silent when the source queue is denyAll and the DLQ has no redrive policy", () => {
    expect(redriveRisks([...queues(), allow(DENY_ALL, DENY_ALL, ["no-op"])])).toEqual([]);
  });

  it("stays silent on the upgrade that adds the source queue's denyAll", () => {
    expect(redriveRisks([...queues(), allow(null, DENY_ALL, ["create"])])).toEqual([]);
  });

  it("flags the source queue's RedriveAllowPolicy removed or loosened as high, saying what can happen and the fix", () => {
    const removed = redriveRisks([...queues(), allow(DENY_ALL, null, ["delete"])]);
    expect(summary(removed)).toEqual([[RiskKind.SourceQueueRedriveAllowed, Severity.High, QUEUE]]);
    expect(removed[0].message).toMatch(/move quarantined copies back with their original enqueue time.*denyAll/);
    expect(summary(redriveRisks([...queues(), allow(DENY_ALL, JSON.stringify({ redrivePermission: "allowAll" }), ["update"])]))).toEqual([[RiskKind.SourceQueueRedriveAllowed, Severity.High, QUEUE]]);
  });

  it("leaves a source queue the state already held open to the upgrade (the plan opens nothing), and flags one created open as medium", () => {
    expect(redriveRisks(queues())).toEqual([]);
    const created: FixtureResource = { address: QUEUE, actions: ["create"], after: queue() };
    expect(summary(redriveRisks([created, update(DLQ, queue({ name: "p-dlq", redrive_policy: null }), queue({ name: "p-dlq", redrive_policy: null }))]))).toEqual([[RiskKind.SourceQueueRedriveAllowed, Severity.Medium, QUEUE]]);
  });

  it("flags a DLQ given a redrive policy of its own as high, naming its target", () => {
    const flags = redriveRisks([...queues(JSON.stringify({ deadLetterTargetArn: TEMPORARY_ARN, maxReceiveCount: 1 })), allow(DENY_ALL, DENY_ALL, ["no-op"])]);
    expect(summary(flags)).toEqual([[RiskKind.DlqRedrivePolicy, Severity.High, DLQ]]);
    expect(flags[0].message).toContain(TEMPORARY_ARN);
  });
});
