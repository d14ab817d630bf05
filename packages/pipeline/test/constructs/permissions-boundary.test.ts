/**
 * The `permissionsBoundary` prop: every role the stack creates carries it (so a deployer limited to roles with that
 * boundary can still deploy), and a literal ARN IAM would refuse at CreateRole is refused at synth instead.
 */
import { resourcesOfType, TEST_STACK } from "@effectively-once/testing";
import { errorOf, synthStack } from "@effectively-once/testing/stack";

const BOUNDARY = "arn:aws:iam::111122223333:policy/teams/pipeline-boundary";


describe("Prop: permissionsBoundary", () => {
  it("is set on every role of the stack (the function's, the pipe's, the workflow's, the DLQ keep-alive's), and on no role without it", () => {
    const bounded = synthStack({ permissionsBoundary: BOUNDARY });
    const plain = synthStack();
    try {
      const roles = resourcesOfType(bounded.json, "aws_iam_role");
      expect(roles.map(([, r]) => r.name).sort()).toEqual(["test-charge-us-east-1-role", "test-dlq-ping-us-east-1-role", "test-pipe-us-east-1-role", "test-workflow-us-east-1-role"]);
      expect(roles.map(([, r]) => r.permissions_boundary)).toEqual(Array(4).fill(BOUNDARY));
      expect(resourcesOfType(plain.json, "aws_iam_role").map(([, r]) => r.permissions_boundary)).toEqual(Array(4).fill(undefined));
    } finally {
      bounded.cleanup();
      plain.cleanup();
    }
  });

  it.each([
    ["a role ARN", "arn:aws:iam::111122223333:role/pipeline-boundary"],
    ["a policy name", "pipeline-boundary"],
    ["an account id of 11 digits", "arn:aws:iam::11112222333:policy/pipeline-boundary"],
    ["a name with a space", "arn:aws:iam::111122223333:policy/pipeline boundary"],
  ])("refuses %s, naming the prop, the value and the fix", (_what, arn) => {
    const error = errorOf(() => synthStack({ permissionsBoundary: arn }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "permissionsBoundary", value: arn, fix: expect.stringContaining("arn:aws:iam::111122223333:policy/") })]);
    expect(error.message).toContain("is not the ARN of an IAM managed policy");
  });

  it("accepts an AWS managed policy (account `aws`)", () => {
    const s = synthStack({ permissionsBoundary: "arn:aws:iam::aws:policy/PowerUserAccess" });
    try {
      expect(resourcesOfType(s.json, "aws_iam_role").map(([, r]) => r.permissions_boundary)).toEqual(Array(4).fill("arn:aws:iam::aws:policy/PowerUserAccess"));
    } finally {
      s.cleanup();
    }
  });

  it("refuses a policy of another partition than the provider's region", () => {
    const error = errorOf(() => synthStack({ permissionsBoundary: BOUNDARY, tracing: false }, { ...TEST_STACK, region: "cn-north-1" }));
    expect(error.problems).toEqual([
      expect.objectContaining({ prop: "permissionsBoundary", value: BOUNDARY, reason: expect.stringContaining('partition "aws", but the stack deploys to cn-north-1 (partition "aws-cn")'), fix: expect.stringContaining("arn:aws-cn:iam::") }),
    ]);
    const china = synthStack({ permissionsBoundary: "arn:aws-cn:iam::111122223333:policy/pipeline-boundary", tracing: false }, { ...TEST_STACK, region: "cn-north-1" });
    try {
      expect(resourcesOfType(china.json, "aws_iam_role")).toHaveLength(4);
    } finally {
      china.cleanup();
    }
  });
});
