import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind } from "../../src/terraform/review/types";
import { LEDGER, POLICY, QUEUE, plan, queue, rolePolicy, table, type FixtureResource } from "./support/plan-fixtures";

const baselineOf = (resources: Parameters<typeof plan>[0]) => ({ label: "base.json", resources: buildReview(plan(resources), { basis: ActionBasis.EmptyState }).resources });

describe("Section: changes against a baseline configuration", () => {
  it("lists added and removed resources, changed settings and IAM statements", () => {
    // Arrange
    const baseline = baselineOf([
      { address: LEDGER, actions: ["create"], after: table() },
      { address: "aws_sqs_queue.old", actions: ["create"], after: queue({ name: "old" }) },
      { address: POLICY, actions: ["create"], after: rolePolicy([{ Sid: "A", Effect: "Allow", Action: ["sqs:SendMessage"], Resource: "arn:q" }]) },
    ]);
    const current = plan([
      { address: LEDGER, actions: ["create"], after: table({ point_in_time_recovery: [{ enabled: false }] }) },
      { address: QUEUE, actions: ["create"], after: queue() },
      { address: POLICY, actions: ["create"], after: rolePolicy([{ Sid: "A", Effect: "Allow", Action: ["sqs:SendMessage", "sqs:DeleteMessage"], Resource: "arn:q" }]) },
    ]);
    // Act
    const review = buildReview(current, { basis: ActionBasis.EmptyState, baseline });
    // Assert
    expect(review.changes).toMatchObject({ baseline: "base.json", added: [QUEUE], removed: ["aws_sqs_queue.old"] });
    expect(review.changes?.settings).toEqual([{ address: LEDGER, name: "p-ledger", setting: "pointInTimeRecovery", before: true, after: false }]);
    expect(review.changes?.statementsAdded.map((s) => s.actions)).toEqual([["sqs:SendMessage", "sqs:DeleteMessage"]]);
    expect(review.changes?.statementsRemoved.map((s) => s.actions)).toEqual([["sqs:SendMessage"]]);
  });

  it("infers from the configurations alone that a renamed table is replaced, and says the flag is inferred", () => {
    const baseline = baselineOf([{ address: LEDGER, actions: ["create"], after: table() }]);
    const review = buildReview(plan([{ address: LEDGER, actions: ["create"], after: table({ hash_key: "id" }) }]), { basis: ActionBasis.EmptyState, baseline });
    expect(review.risks).toEqual([expect.objectContaining({ kind: RiskKind.StatefulReplace, basis: "configuration" })]);
    expect(review.risks[0].message).toContain("`hashKey` cannot change in place");
    expect(review.risks[0].message).toContain("the ledger loses every claim");
  });

  it("infers the loss of a table the new configuration no longer has", () => {
    const baseline = baselineOf([{ address: LEDGER, actions: ["create"], after: table() }]);
    const review = buildReview(plan([]), { basis: ActionBasis.EmptyState, baseline });
    expect(review.risks.map((r) => r.kind)).toEqual([RiskKind.StatefulDestroy]);
  });

  it("reports nothing when the configurations are the same, even where names inside references differ", () => {
    const ref = (name: string): FixtureResource[] => [
      { address: "aws_sqs_queue.dlq", actions: ["create"], after: queue({ name, redrive_policy: null }), unknown: { arn: true } },
      {
        address: POLICY,
        actions: ["create"],
        after: { name: "p", role: "r" },
        unknown: { policy: true },
        expressions: { policy: { constant_value: '{"Statement":[{"Effect":"Allow","Action":"sqs:SendMessage","Resource":"${aws_sqs_queue.dlq.arn}"}]}', references: ["aws_sqs_queue.dlq.arn"] } },
      },
    ];
    const review = buildReview(plan(ref("b-dlq")), { basis: ActionBasis.EmptyState, baseline: baselineOf(ref("a-dlq")) });
    expect(review.changes).toMatchObject({ added: [], removed: [], statementsAdded: [], statementsRemoved: [] });
    expect(review.changes?.settings.map((s) => s.setting)).toEqual(["name"]);
  });
});
