import { PLACEHOLDER_ACCOUNT, seedStateFromPlan } from "../../src/terraform/seed-state";
import { plan, queue, table } from "./support/plan-fixtures";

describe("Function: seedStateFromPlan", () => {
  const base = plan(
    [
      { address: "aws_sqs_queue.dlq", actions: ["create"], after: queue({ name: "p-dlq", redrive_policy: null }), unknown: { arn: true, id: true, url: true, redrive_policy: true } },
      {
        address: "aws_sqs_queue.queue",
        actions: ["create"],
        after: queue({ redrive_policy: null }),
        unknown: { arn: true, id: true, url: true, redrive_policy: true },
        expressions: { redrive_policy: { constant_value: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}', references: ["aws_sqs_queue.dlq.arn"] } },
      },
      { address: "aws_dynamodb_table.ledger", actions: ["create"], after: table(), unknown: { arn: true, id: true, server_side_encryption: [{ kms_key_arn: true }], stream_arn: true } },
      {
        address: "aws_iam_role_policy.p",
        actions: ["create"],
        after: { name: "least-privilege" },
        unknown: { id: true, policy: true, role: true },
        expressions: {
          policy: { constant_value: '{"Statement":[{"Resource":"${aws_dynamodb_table.ledger.arn}"}]}', references: ["aws_dynamodb_table.ledger.arn"] },
          role: { constant_value: "${aws_iam_role.r.id}", references: ["aws_iam_role.r.id"] },
        },
      },
      { address: "aws_iam_role.r", actions: ["create"], after: { name: "p-role" }, unknown: { arn: true, id: true, managed_policy_arns: true } },
      { address: "aws_lambda_function.f", actions: ["create"], after: { function_name: "p-fn" }, unknown: { z: true }, expressions: { z: { constant_value: "${jsonencode(1)}" } } },
    ],
    "eu-west-1",
  );
  const { state, unresolved } = seedStateFromPlan(base);
  const attrs = (type: string, name: string) => state.resources.find((r) => r.type === type && r.name === name)!.instances[0].attributes;

  it("gives computed ids, ARNs and URLs placeholders in each service's format (account 000000000000, the plan's region)", () => {
    expect(attrs("aws_sqs_queue", "dlq")).toMatchObject({ arn: `arn:aws:sqs:eu-west-1:${PLACEHOLDER_ACCOUNT}:p-dlq`, url: `https://sqs.eu-west-1.amazonaws.com/${PLACEHOLDER_ACCOUNT}/p-dlq` });
    expect(attrs("aws_sqs_queue", "dlq").id).toBe(attrs("aws_sqs_queue", "dlq").url);
    expect(attrs("aws_dynamodb_table", "ledger")).toMatchObject({ arn: `arn:aws:dynamodb:eu-west-1:${PLACEHOLDER_ACCOUNT}:table/p-ledger`, id: "p-ledger", stream_arn: null });
    expect(attrs("aws_iam_role", "r")).toMatchObject({ arn: `arn:aws:iam::${PLACEHOLDER_ACCOUNT}:role/p-role`, id: "p-role", managed_policy_arns: [] });
  });

  it("computes values built from references the way Terraform would, ids of dependent resources included", () => {
    expect(JSON.parse(attrs("aws_sqs_queue", "queue").redrive_policy as string)).toEqual({ deadLetterTargetArn: `arn:aws:sqs:eu-west-1:${PLACEHOLDER_ACCOUNT}:p-dlq`, maxReceiveCount: 5 });
    expect(attrs("aws_iam_role_policy", "p")).toMatchObject({ role: "p-role", id: "p-role:least-privilege", policy: `{"Statement":[{"Resource":"arn:aws:dynamodb:eu-west-1:${PLACEHOLDER_ACCOUNT}:table/p-ledger"}]}` });
  });

  it("leaves what it cannot compute empty and reports it", () => {
    expect(attrs("aws_lambda_function", "f").z).toBeNull();
    expect(unresolved).toEqual(["aws_lambda_function.f.z"]);
  });

  it("writes a version 4 state with the provider address and each resource's schema version", () => {
    expect(state).toMatchObject({ version: 4, serial: 1 });
    expect(state.resources[0]).toMatchObject({ mode: "managed", provider: 'provider["registry.terraform.io/hashicorp/aws"]' });
    expect(state.resources[0].instances[0]).toMatchObject({ schema_version: 0, sensitive_attributes: [] });
  });
});
