/**
 * What a team passes through the construct (its IAM statements, the provider's default tags, alarm actions, the
 * region, the handler's file, the log retention, its environment) is checked at synth like the construct's own props:
 * prop, value, limit and fix, every problem in one error.
 */
import { App, TerraformStack, Testing } from "cdktf";
import { AwsProvider } from "@cdktf/provider-aws/lib/provider";
import { join } from "node:path";
import type { PolicyStatement } from "../../src/constructs/function-props";
import { IdempotentPipeline } from "../../src/constructs";
import { resourcesOfType, TEST_STACK } from "@effectively-once/testing";
import { buildStack, errorOf, synthStack } from "@effectively-once/testing/stack";
import { build, warningsOf } from "./support/build";

const ENTRY = join(__dirname, "../../../../examples/payments/functions/handler.ts");
const statement = (overrides: Partial<PolicyStatement>): PolicyStatement => ({ Sid: "ReadOrders", Effect: "Allow", Action: ["dynamodb:GetItem"], Resource: ["arn:aws:dynamodb:us-east-1:123456789012:table/orders"], ...overrides });

/** A stack of its own: its provider's region (none: from AWS_REGION at plan) and default_tags, the pipeline's alarm actions. */
function ownStack(provider: { region?: string; tags?: Record<string, string> }, alarmActions: string[] = []): TerraformStack {
  const stack = new TerraformStack(new App(), "own-test");
  new AwsProvider(stack, "aws", { region: provider.region, ...(provider.tags ? { defaultTags: [{ tags: provider.tags }] } : {}) });
  new IdempotentPipeline(stack, "pipeline", { namePrefix: "t", businessKey: { expression: "[a]", requiredFields: ["a"] }, payloadFields: ["b"], alarmActions, function: { entry: ENTRY } });
  return stack;
}
const withDefaultTags = (tags: Record<string, string>) => () => ownStack({ region: "us-east-1", tags });

describe("Synth checks what a team passes through", () => {
  it("refuses an empty Action, a Sid with a space or a hyphen, and an action without a service prefix, all at once", () => {
    const error = errorOf(build({ function: { policyStatements: [statement({ Action: [] }), statement({ Sid: "read orders" }), statement({ Sid: "read-orders" }), statement({ Action: ["GetItem"] })] } }));
    expect(error.problems.map((p) => [p.prop, p.value])).toEqual([
      ["function.policyStatements[0].Action", []],
      ["function.policyStatements[1].Sid", "read orders"],
      ["function.policyStatements[2].Sid", "read-orders"],
      ["function.policyStatements[3].Action", "GetItem"],
    ]);
    expect(error.message).toMatch(/Sid.*only A-Z, a-z and 0-9.*Fix: use "readorders".*reference_policies_elements_sid/);
    expect(error.message).toMatch(/"GetItem" is not an IAM action.*Fix: write it with its service prefix/);
  });

  it("accepts `*`, wildcards, hyphenated service prefixes and a statement without a Sid", () => {
    expect(build({ function: { policyStatements: [statement({ Action: ["*"] }), statement({ Action: ["s3:Get*", "execute-api:Invoke"] }), statement({ Sid: undefined })] } })).not.toThrow();
  });

  it("refuses statements that, with the construct's own, pass IAM's 10,240 characters per role, though they fit alone", () => {
    const resources = (i: number) => Array.from({ length: 4 }, (_, j) => `arn:aws:dynamodb:us-east-1:123456789012:table/orders-archive-${i}-${j}`);
    const statements: PolicyStatement[] = [];
    const size = () => JSON.stringify(statements).length;
    while (size() < 10_240 - 400) statements.push(statement({ Sid: `Read${statements.length}`, Resource: resources(statements.length) }));
    expect(JSON.stringify({ Version: "2012-10-17", Statement: statements }).length).toBeLessThanOrEqual(10_240);
    const error = errorOf(build({ function: { policyStatements: statements } }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "function.policyStatements", value: `${statements.length} statements` })]);
    expect(error.message).toMatch(/inline policy \d{5} characters as IAM counts them \(whitespace not counted.*over IAM's 10240 per role.*reference_iam-quotas/);
    // Without the last statements it fits.
    expect(build({ function: { policyStatements: statements.slice(0, statements.length - 3) } })).not.toThrow();
  });

  it("refuses provider default_tags beyond AWS's limits: 51 tags, a 129-character key, an aws: key, a 257-character value", () => {
    const tags: Record<string, string> = Object.fromEntries(Array.from({ length: 48 }, (_, i) => [`t${i}`, "v"]));
    tags["k".repeat(129)] = "v";
    tags["aws:owner"] = "team";
    tags.note = "n".repeat(257);
    const error = errorOf(withDefaultTags(tags));
    expect(error.problems.map((p) => p.prop)).toEqual(Array(4).fill("provider default_tags"));
    expect(error.message).toMatch(/51 tags on every resource; AWS allows 50/);
    expect(error.message).toMatch(/tag key of 129 characters; AWS allows 128/);
    expect(error.message).toMatch(/starts with aws:/);
    expect(error.message).toMatch(/tag value of 257 characters; AWS allows 256/);
    expect(withDefaultTags({ team: "payments" })).not.toThrow();
  });

  it("refuses an alarm action in another region than the alarms", () => {
    const error = errorOf(build({ alarmActions: ["arn:aws:sns:us-east-1:123456789012:ok", "arn:aws:sns:eu-west-1:123456789012:ops"] }));
    expect(error.problems).toEqual([expect.objectContaining({ prop: "alarmActions", value: "arn:aws:sns:eu-west-1:123456789012:ops" })]);
    expect(error.message).toMatch(/is in eu-west-1, but the alarms are in us-east-1.*Fix: give a topic in us-east-1/);
  });

  it("checks an alarm action's region at plan when the provider's region comes from the environment", () => {
    const json = JSON.parse(Testing.synth(ownStack({}, ["arn:aws:sns:eu-west-1:123456789012:ops"]))) as { resource: Record<string, Record<string, { lifecycle?: { precondition?: { condition: string; error_message: string }[] } }>> };
    const alarms = Object.values(json.resource.aws_cloudwatch_metric_alarm);
    expect(alarms.length).toBeGreaterThan(0);
    for (const alarm of alarms) {
      expect(alarm.lifecycle?.precondition).toEqual([{ condition: expect.stringMatching(/^\$\{\(data\.aws_region\.[^.]+\.name == "eu-west-1"\)\}$/), error_message: expect.stringContaining("is in eu-west-1") }]);
    }
  });

  it("warns (does not refuse) in a region botocore lists no Pipes endpoint for, and not in one it does", () => {
    expect(warningsOf(buildStack({}, { ...TEST_STACK, region: "ca-west-1" })).join("\n")).toMatch(/provider region ca-west-1 is not among the regions botocore lists for EventBridge Pipes.*npm run preflight/);
    expect(warningsOf(buildStack({}, TEST_STACK)).join("\n")).not.toMatch(/EventBridge Pipes/);
  });

  it("names function.entry when the handler's file is missing, beside the other problems, instead of esbuild's error", () => {
    const error = errorOf(build({ logRetentionDays: 10, function: { entry: "functions/no-such-handler.ts" } }));
    expect(error.problems.map((p) => p.prop)).toEqual(["logRetentionDays", "function.entry"]);
    expect(error.message).toMatch(/function\.entry = "functions\/no-such-handler\.ts" names no file \(resolved from .* to .*no-such-handler\.ts\)\. Fix: give the path/);
  });

  it("supports logRetentionDays 0 (never expire) and writes it to every log group", () => {
    const stack = synthStack({ logRetentionDays: 0 });
    try {
      const groups = resourcesOfType(stack.json, "aws_cloudwatch_log_group").map(([, body]) => body.retention_in_days);
      expect(groups.length).toBeGreaterThanOrEqual(3);
      expect(groups.every((days) => days === 0)).toBe(true);
    } finally {
      stack.cleanup();
    }
  });

  it("shows a 5 KB environment cut to a few hundred characters, with its length, not whole", () => {
    const error = errorOf(build({ function: { environment: { SETTINGS: "x".repeat(5000) } } }));
    expect(error.problems.map((p) => p.prop)).toEqual(["function.environment"]);
    expect(error.message).toMatch(/… \(\d{4} characters in all\) makes the function's environment/);
    expect(error.message.length).toBeLessThan(1200);
  });
});
