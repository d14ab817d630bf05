import { TEST_STACK, resourcesOfType, type SynthesizedStack, type TerraformJson } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

interface Statement {
  Effect: string;
  Action: string[];
  Resource: string[];
}

/**
 * Actions that AWS documents as supporting no resource-level permissions, so `Resource: "*"` is required.
 * Each is named here on purpose: adding a wildcard anywhere else fails this suite.
 */
const WILDCARD_RESOURCE_ALLOWED = new Set([
  // Step Functions → CloudWatch Logs delivery (vended logs): AWS requires "*" for these.
  "logs:CreateLogDelivery",
  "logs:GetLogDelivery",
  "logs:UpdateLogDelivery",
  "logs:DeleteLogDelivery",
  "logs:ListLogDeliveries",
  "logs:PutResourcePolicy",
  "logs:DescribeResourcePolicies",
  "logs:DescribeLogGroups",
  // X-Ray segment upload and sampling: no resource-level permissions exist.
  "xray:PutTraceSegments",
  "xray:PutTelemetryRecords",
  "xray:GetSamplingRules",
  "xray:GetSamplingTargets",
]);

const REFERENCE = /^\$\{(aws_[a-z0-9_]+)\.([A-Za-z0-9_-]+)\.(arn|name|url|id)\}(:\*|:log-stream:[A-Za-z0-9_-]+)?$/;

function policies(json: TerraformJson): { role: string; statements: Statement[] }[] {
  return resourcesOfType(json, "aws_iam_role_policy").map(([, body]) => ({
    role: body.role as string,
    statements: JSON.parse(body.policy as string).Statement as Statement[],
  }));
}

function actionsOfRole(json: TerraformJson, roleName: string): string[] {
  const [[roleId]] = resourcesOfType(json, "aws_iam_role").filter(([, body]) => body.name === roleName);
  return policies(json)
    .filter((p) => p.role === `\${aws_iam_role.${roleId}.id}`)
    .flatMap((p) => p.statements.flatMap((s) => s.Action))
    .sort();
}

describe("IAM least privilege (synthesized stack)", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack.cleanup());

  it("grants no wildcard action", () => {
    const actions = policies(stack.json).flatMap((p) => p.statements.flatMap((s) => s.Action));
    expect(actions.length).toBeGreaterThan(10);
    for (const action of actions) expect(action).not.toMatch(/\*/);
  });

  it("scopes every statement to resources of this stack, except the AWS-required wildcards", () => {
    const { json } = stack;
    for (const { statements } of policies(json)) {
      for (const statement of statements) {
        expect(statement.Effect).toBe("Allow");
        for (const resource of statement.Resource) {
          if (resource === "*") {
            for (const action of statement.Action) expect(WILDCARD_RESOURCE_ALLOWED).toContain(action);
            continue;
          }
          const match = REFERENCE.exec(resource);
          expect(match).not.toBeNull();
          const [, type, id] = match!;
          expect(json.resource[type]?.[id]).toBeDefined();
        }
      }
    }
  });

  it("lets the pipe only read its queue, start its workflow synchronously and write its own log group", () => {
    expect(actionsOfRole(stack.json, "test-pipe-us-east-1-role")).toEqual([
      "logs:CreateLogStream",
      "logs:PutLogEvents",
      "sqs:DeleteMessage",
      "sqs:GetQueueAttributes",
      "sqs:ReceiveMessage",
      "states:StartSyncExecution",
    ]);
  });

  it("lets the workflow touch only its ledger, its function, its DLQ and its fate metrics stream (plus log delivery and tracing)", () => {
    expect(actionsOfRole(stack.json, "test-workflow-us-east-1-role")).toEqual(
      [
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "lambda:InvokeFunction",
        "logs:PutLogEvents",
        "sqs:SendMessage",
        ...WILDCARD_RESOURCE_ALLOWED,
      ].sort(),
    );
  });

  it("lets the DLQ keep-alive read the DLQ's attributes, and nothing else", () => {
    expect(actionsOfRole(stack.json, "test-dlq-ping-us-east-1-role")).toEqual(["sqs:GetQueueAttributes"]);
    const [[roleId]] = resourcesOfType(stack.json, "aws_iam_role").filter(([, body]) => body.name === "test-dlq-ping-us-east-1-role");
    const [policy] = policies(stack.json).filter((p) => p.role === `\${aws_iam_role.${roleId}.id}`);
    const [[dlqId]] = resourcesOfType(stack.json, "aws_sqs_queue").filter(([, body]) => body.name === "test-dlq");
    expect(policy.statements.flatMap((s) => s.Resource)).toEqual([`\${aws_sqs_queue.${dlqId}.arn}`]);
  });

  it("lets the function write its logs, its idempotency records and the downstream charge, and nothing else", () => {
    expect(actionsOfRole(stack.json, "test-charge-us-east-1-role")).toEqual(
      [
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "logs:CreateLogStream",
        "logs:PutLogEvents",
        "xray:PutTelemetryRecords",
        "xray:PutTraceSegments",
      ].sort(),
    );
  });

  it("lets each role be assumed by its one service only, on behalf of this account (confused-deputy conditions)", () => {
    // Arrange: the account, partition and region come from data sources Terraform reads while planning; evaluate
    // those references with sample values.
    const [[callerId]] = Object.entries(stack.json.data!.aws_caller_identity);
    const [[partitionId]] = Object.entries(stack.json.data!.aws_partition);
    const [[regionId]] = Object.entries(stack.json.data!.aws_region);
    const region = "eu-south-2";
    const evaluate = (text: string) =>
      text
        .replaceAll(`\${data.aws_caller_identity.${callerId}.account_id}`, "111122223333")
        .replaceAll(`\${data.aws_partition.${partitionId}.partition}`, "aws-us-gov")
        .replaceAll(`\${data.aws_region.${regionId}.name}`, region);
    // Act
    const trust = Object.fromEntries(
      resourcesOfType(stack.json, "aws_iam_role").map(([, body]) => [body.name, JSON.parse(evaluate(body.assume_role_policy as string)).Statement]),
    );
    // Assert
    const statement = (service: string, Condition: unknown) => [{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole", Condition }];
    expect(trust).toEqual({
      "test-pipe-us-east-1-role": statement("pipes.amazonaws.com", {
        StringEquals: { "aws:SourceAccount": "111122223333", "aws:SourceArn": `arn:aws-us-gov:pipes:${region}:111122223333:pipe/test-pipe` },
      }),
      // The one state machine of this stack, not every one of the account.
      "test-workflow-us-east-1-role": statement("states.amazonaws.com", {
        StringEquals: { "aws:SourceAccount": "111122223333", "aws:SourceArn": `arn:aws-us-gov:states:${region}:111122223333:stateMachine:test-workflow` },
      }),
      "test-charge-us-east-1-role": statement("lambda.amazonaws.com", { StringEquals: { "aws:SourceAccount": "111122223333" } }),
      // The DLQ keep-alive's one schedule (Scheduler's default group).
      "test-dlq-ping-us-east-1-role": statement("scheduler.amazonaws.com", {
        StringEquals: { "aws:SourceAccount": "111122223333", "aws:SourceArn": `arn:aws-us-gov:scheduler:${region}:111122223333:schedule/default/test-dlq-keepalive` },
      }),
    });
    // What Pipes and Step Functions send as aws:SourceArn is the pipe's and the state machine's own ARN.
    const [, pipe] = resourcesOfType(stack.json, "aws_pipes_pipe")[0];
    expect(trust["test-pipe-us-east-1-role"][0].Condition.StringEquals["aws:SourceArn"]).toMatch(new RegExp(`:pipe/${pipe.name}$`));
    const [, machine] = resourcesOfType(stack.json, "aws_sfn_state_machine")[0];
    expect(trust["test-workflow-us-east-1-role"][0].Condition.StringEquals["aws:SourceArn"]).toMatch(new RegExp(`:stateMachine:${machine.name}$`));
  });

  it("writes no account id or region into a trust policy: the region is the provider's, read at plan", () => {
    const other = synthStack({}, { ...TEST_STACK, region: "eu-west-3" });
    try {
      const [[regionId]] = Object.entries(other.json.data!.aws_region);
      for (const [, body] of resourcesOfType(other.json, "aws_iam_role")) {
        const policy = body.assume_role_policy as string;
        expect(policy).not.toMatch(/\d{12}/);
        expect(policy).not.toMatch(/us-east-1|eu-west-3/);
      }
      expect(resourcesOfType(other.json, "aws_iam_role").filter(([, body]) => (body.assume_role_policy as string).includes(`:\${data.aws_region.${regionId}.name}:`))).toHaveLength(3);
    } finally {
      other.cleanup();
    }
  });

  it("drops the X-Ray wildcard when tracing is off", () => {
    const untraced = synthStack({ tracing: false });
    try {
      const actions = policies(untraced.json).flatMap((p) => p.statements.flatMap((s) => s.Action));
      expect(actions.filter((a) => a.startsWith("xray:"))).toEqual([]);
    } finally {
      untraced.cleanup();
    }
  });
});
