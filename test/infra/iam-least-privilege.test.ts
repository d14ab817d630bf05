import { resourcesOfType, synthStack, type SynthesizedStack, type TerraformJson } from "../helpers/synth";

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

const REFERENCE = /^\$\{(aws_[a-z0-9_]+)\.([A-Za-z0-9_-]+)\.(arn|name|url|id)\}(:\*)?$/;

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

  it("lets the pipe only read its queue and start its workflow synchronously", () => {
    expect(actionsOfRole(stack.json, "test-pipe-role")).toEqual([
      "sqs:DeleteMessage",
      "sqs:GetQueueAttributes",
      "sqs:ReceiveMessage",
      "states:StartSyncExecution",
    ]);
  });

  it("lets the workflow touch only its ledger, its function and its DLQ (plus log delivery and tracing)", () => {
    expect(actionsOfRole(stack.json, "test-workflow-role")).toEqual(
      [
        "dynamodb:DeleteItem",
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "lambda:InvokeFunction",
        "sqs:SendMessage",
        ...WILDCARD_RESOURCE_ALLOWED,
      ].sort(),
    );
  });

  it("lets the function write its logs, its idempotency records and the downstream charge, and nothing else", () => {
    expect(actionsOfRole(stack.json, "test-charge-role")).toEqual(
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

  it("lets each role be assumed by its one service only", () => {
    const trust = Object.fromEntries(
      resourcesOfType(stack.json, "aws_iam_role").map(([, body]) => [body.name, JSON.parse(body.assume_role_policy as string).Statement]),
    );
    expect(trust).toEqual({
      "test-pipe-role": [{ Effect: "Allow", Principal: { Service: "pipes.amazonaws.com" }, Action: "sts:AssumeRole" }],
      "test-workflow-role": [{ Effect: "Allow", Principal: { Service: "states.amazonaws.com" }, Action: "sts:AssumeRole" }],
      "test-charge-role": [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
    });
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
