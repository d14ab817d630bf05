import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, StatementSource, type IamStatement } from "../../src/terraform/review/types";
import { LEDGER, POLICY, ROLE, plan, policyDoc, role, rolePolicy, table } from "./support/plan-fixtures";

function statements(resources: Parameters<typeof plan>[0]): IamStatement[] {
  return buildReview(plan(resources), { basis: ActionBasis.EmptyState }).resources.flatMap((r) => r.statements ?? []);
}

describe("Section: IAM statements", () => {
  it("lists each inline statement as actions × resources with its role and Sid", () => {
    const rows = statements([{ address: POLICY, actions: ["update"], before: null, after: rolePolicy([{ Sid: "Ledger", Effect: "Allow", Action: "dynamodb:PutItem", Resource: "arn:aws:dynamodb:us-east-1:1:table/t" }]) }]);
    expect(rows).toEqual([
      expect.objectContaining({
        policy: POLICY,
        source: StatementSource.Inline,
        role: "p-workflow-role",
        sid: "Ledger",
        actions: ["dynamodb:PutItem"],
        resources: ["arn:aws:dynamodb:us-east-1:1:table/t"],
        wildcardActions: [],
        wildcardResource: false,
      }),
    ]);
  });

  it("shows the referenced resource address (and its name) instead of '(known after apply)' for unknown ARNs", () => {
    // Arrange: the policy is unknown at plan time; the configuration section holds the template.
    const template = policyDoc([{ Sid: "Ledger", Effect: "Allow", Action: ["dynamodb:GetItem"], Resource: ["${aws_dynamodb_table.ledger.arn}", "${aws_dynamodb_table.ledger.arn}/index/*"] }]);
    const rows = statements([
      { address: LEDGER, actions: ["create"], after: table(), unknown: { arn: true } },
      { address: ROLE, actions: ["create"], after: role() },
      {
        address: POLICY,
        actions: ["create"],
        after: { name: "least-privilege" },
        unknown: { policy: true, role: true },
        expressions: {
          policy: { constant_value: template, references: ["aws_dynamodb_table.ledger.arn", "aws_dynamodb_table.ledger"] },
          role: { constant_value: "${aws_iam_role.workflow.id}", references: ["aws_iam_role.workflow.id", "aws_iam_role.workflow"] },
        },
      },
    ]);
    // Act
    const inline = rows.find((s) => s.source === StatementSource.Inline)!;
    // Assert
    expect(inline.resources).toEqual(["aws_dynamodb_table.ledger.arn (p-ledger)", "aws_dynamodb_table.ledger.arn (p-ledger)/index/*"]);
    expect(inline.role).toBe("p-workflow-role");
    expect(JSON.stringify(rows)).not.toContain("known after apply");
  });

  it("flags wildcards and notes the ones AWS requires (Logs delivery, X-Ray)", () => {
    const rows = statements([
      {
        address: POLICY,
        actions: ["create"],
        after: rolePolicy([
          { Sid: "LogDelivery", Effect: "Allow", Action: ["logs:CreateLogDelivery", "logs:DescribeLogGroups"], Resource: ["*"] },
          { Sid: "Tracing", Effect: "Allow", Action: ["xray:PutTraceSegments"], Resource: "*" },
          { Sid: "Broad", Effect: "Allow", Action: ["sqs:*"], Resource: ["arn:aws:sqs:us-east-1:1:q"] },
          { Sid: "Mixed", Effect: "Allow", Action: ["xray:PutTraceSegments", "dynamodb:Scan"], Resource: "*" },
        ]),
      },
    ]);
    const bySid = Object.fromEntries(rows.map((s) => [s.sid, s]));
    expect(bySid.LogDelivery.requiredWildcard).toContain("CloudWatch Logs delivery");
    expect(bySid.Tracing.requiredWildcard).toContain("X-Ray");
    expect(bySid.Broad).toMatchObject({ wildcardActions: ["sqs:*"], wildcardResource: false, requiredWildcard: null });
    expect(bySid.Mixed).toMatchObject({ wildcardResource: true, requiredWildcard: null });
  });

  it("reads trust policies as principals, and NotAction/NotResource as wildcards", () => {
    const rows = statements([
      { address: ROLE, actions: ["create"], after: role("pipes.amazonaws.com", "p-pipe-role") },
      { address: POLICY, actions: ["create"], after: rolePolicy([{ Effect: "Allow", NotAction: "iam:*", NotResource: "arn:aws:iam::1:role/x", Condition: { Bool: { "aws:SecureTransport": "true" } } }]) },
    ]);
    expect(rows[0]).toMatchObject({ source: StatementSource.Trust, role: "p-pipe-role", actions: ["sts:AssumeRole"], principals: ["Service: pipes.amazonaws.com"], wildcardResource: false });
    expect(rows[1]).toMatchObject({ notAction: true, notResource: true, wildcardActions: ["NotAction iam:*"], wildcardResource: true, hasCondition: true });
  });

  it("marks a policy it cannot read at plan time instead of guessing", () => {
    const review = buildReview(
      plan([{ address: POLICY, actions: ["create"], after: { name: "x" }, unknown: { policy: true }, expressions: { policy: { references: ["data.aws_iam_policy_document.x.json"] } } }]),
      { basis: ActionBasis.EmptyState },
    );
    expect(review.resources[0]).toMatchObject({ statements: [], policyUnknown: true });
  });
});
