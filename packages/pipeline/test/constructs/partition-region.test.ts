/**
 * Where the stack deploys comes from the provider, at plan time: every ARN is built on `data "aws_partition"`, the
 * region on `data "aws_region"`, so a China stack holds no `arn:aws:` and a stack whose region comes from AWS_REGION
 * still trusts the right ARNs. Regions that lack what the pipeline uses are refused by Terraform's preconditions
 * when the synth could not see them.
 */
import { resolveProps } from "../../src/constructs/resolve-props";
import { FUNCTION_RULES } from "../../src/constructs/function-rules";
import { runPropRules } from "../../src/constructs/prop-rules";
import { resourceNamed, resourcesOfType, TEST_STACK, type SynthesizedStack } from "@effectively-once/testing";
import { buildStack, pipelineOf, synthStack } from "@effectively-once/testing/stack";

describe("A stack in the China (Beijing) Region", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack({ tracing: false }, { ...TEST_STACK, region: "cn-north-1" });
  });
  afterAll(() => stack.cleanup());

  it("holds no ARN of the aws partition anywhere, the state machine definition included", () => {
    const text = JSON.stringify(stack.json);
    expect(text).not.toMatch(/arn:aws:/);
    const [[partitionId]] = Object.entries(stack.json.data!.aws_partition);
    const definition = resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").definition as string;
    // One invocation per batch (the default): the claim phase's Claim, Inspect and Quarantine, InvokeBatch, the settle
    // phase's Invoke, Complete, Release and Quarantine, the follower quarantine, and the fate metrics call.
    expect(definition.match(/"Resource":"arn:[^"]*"/g)).toEqual(Array(10).fill(expect.stringContaining(`arn:\${data.aws_partition.${partitionId}.partition}:states:::`)));
  });

  it("writes the region only into the account-wide names: outputs, dashboard widgets and trust policies read data \"aws_region\"", () => {
    const written = [...JSON.stringify({ resource: stack.json.resource, output: stack.json.output }).matchAll(/"([^"]*cn-north-1[^"]*)"/g)].map((m) => m[1]);
    expect(written.sort()).toEqual(["test-charge-cn-north-1-role", "test-dlq-ping-cn-north-1-role", "test-pipe-cn-north-1-role", "test-pipeline-cn-north-1", "test-workflow-cn-north-1-role"]);
    const [[regionId]] = Object.entries(stack.json.data!.aws_region);
    expect(stack.json.output.region).toEqual({ value: `\${data.aws_region.${regionId}.name}` });
    const dashboard = JSON.parse(resourceNamed(stack.json, "aws_cloudwatch_dashboard", "test-pipeline-cn-north-1").dashboard_body as string);
    expect(new Set(dashboard.widgets.map((w: { properties: { region: string } }) => w.properties.region))).toEqual(new Set([`\${data.aws_region.${regionId}.name}`]));
  });
});

describe("Regions the synth cannot see (the provider's region from AWS_REGION at plan time)", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack.cleanup());

  it("the pipe refuses GovCloud at plan, citing AWS's GovCloud guide", () => {
    const [[partitionId]] = Object.entries(stack.json.data!.aws_partition);
    expect(resourceNamed(stack.json, "aws_pipes_pipe", "test-pipe").lifecycle).toEqual({
      precondition: [{ condition: `\${(data.aws_partition.${partitionId}.partition != "aws-us-gov")}`, error_message: expect.stringContaining("govcloud-eventbridge.html") }],
    });
  });

  it("the traced function refuses the China partition at plan; an untraced one has no precondition", () => {
    const [[partitionId]] = Object.entries(stack.json.data!.aws_partition);
    expect(resourceNamed(stack.json, "aws_lambda_function", "test-charge").lifecycle).toEqual({
      precondition: [{ condition: `\${(data.aws_partition.${partitionId}.partition != "aws-cn")}`, error_message: expect.stringMatching(/China Regions.*set tracing: false/) }],
    });
    const untraced = synthStack({ tracing: false });
    try {
      expect(resourceNamed(untraced.json, "aws_lambda_function", "test-charge").lifecycle).toBeUndefined();
    } finally {
      untraced.cleanup();
    }
  });
});

describe("The pipe's own logs", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack({ logRetentionDays: 30 });
  });
  afterAll(() => stack.cleanup());

  it("are configured in full: ERROR level, no execution data, its own log group with the stack's retention", () => {
    const [[groupId, group]] = resourcesOfType(stack.json, "aws_cloudwatch_log_group").filter(([, body]) => body.name === "/aws/vendedlogs/pipes/test-pipe");
    expect(group).toMatchObject({ retention_in_days: 30 });
    // Every field AWS reports back is stated, so a re-plan finds nothing to change (terraform-provider-aws issue 42565).
    expect(resourceNamed(stack.json, "aws_pipes_pipe", "test-pipe").log_configuration).toEqual({
      level: "ERROR",
      include_execution_data: [],
      cloudwatch_logs_log_destination: { log_group_arn: `\${aws_cloudwatch_log_group.${groupId}.arn}` },
    });
  });

  it("are written by the pipe's role, on that log group only", () => {
    const [[groupId]] = resourcesOfType(stack.json, "aws_cloudwatch_log_group").filter(([, body]) => body.name === "/aws/vendedlogs/pipes/test-pipe");
    const [[roleId]] = resourcesOfType(stack.json, "aws_iam_role").filter(([, body]) => body.name === "test-pipe-us-east-1-role");
    const [, policy] = resourcesOfType(stack.json, "aws_iam_role_policy").find(([, body]) => body.role === `\${aws_iam_role.${roleId}.id}`)!;
    expect(JSON.parse(policy.policy as string).Statement).toContainEqual({
      Sid: "WriteOwnLogs",
      Effect: "Allow",
      Action: ["logs:CreateLogStream", "logs:PutLogEvents"],
      Resource: [`\${aws_cloudwatch_log_group.${groupId}.arn}:*`],
    });
  });
});

describe("The workflow's first create", () => {
  it("waits for its role's policy and its fate metrics stream, so it never starts before IAM can answer for it or writes to a stream not yet made", () => {
    const stack = synthStack();
    try {
      const [[policyId]] = resourcesOfType(stack.json, "aws_iam_role_policy").filter(([, body]) => String(body.role).includes("workflow"));
      const [[streamId]] = resourcesOfType(stack.json, "aws_cloudwatch_log_stream");
      expect(resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").depends_on).toEqual([`aws_iam_role_policy.${policyId}`, `aws_cloudwatch_log_stream.${streamId}`]);
    } finally {
      stack.cleanup();
    }
  });
});

describe("The function's runtime", () => {
  it("is nodejs22.x by default, and the provider bindings here report hashicorp/aws 5.100.0", () => {
    const pipeline = pipelineOf(buildStack());
    expect(pipeline.config.function.runtime).toBe("nodejs22.x");
    expect(pipeline.config.target.providerVersion).toBe("5.100.0");
  });

  it("may be nodejs24.x where the bindings are for hashicorp/aws 6.19.0 or later (the /cdktn entry's 6.66.0)", () => {
    const props = { namePrefix: "x", businessKey: { expression: "[a]", requiredFields: ["a"] }, payloadFields: ["b"], function: { entry: "f.ts", runtime: "nodejs24.x" as const } };
    const rule = FUNCTION_RULES.filter((r) => r.name === "function.runtime");
    expect(runPropRules(rule, resolveProps(props, { providerVersion: "6.66.0" })).problems).toEqual([]);
    expect(runPropRules(rule, resolveProps(props, { providerVersion: "6.19.0" })).problems).toEqual([]);
    expect(runPropRules(rule, resolveProps(props, { providerVersion: "6.18.9" })).problems).toEqual([expect.objectContaining({ prop: "function.runtime" })]);
  });
});
