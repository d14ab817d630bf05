import { definitionCheck } from "../../src/terraform/rehearse/definition-check";
import { validateAnswer } from "../../src/terraform/definition-validator";
import { createServer } from "node:http";
import { listenOnLoopback, readBody, replyJson } from "../../src/terraform/json-http";
import { compactRedrivePolicy, startFront } from "../../src/terraform/rehearse/front";
import { resourcesOfType } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

/** The definition the provider sends: the synthesized one with its references resolved (as after apply). */
function deployedDefinition(): Record<string, unknown> {
  const stack = synthStack();
  try {
    const [, machine] = resourcesOfType(stack.json, "aws_sfn_state_machine")[0]!;
    const text = (machine.definition as string)
      .replace(/\$\{data\.aws_partition\.[^}]+\}/g, "aws")
      .replace(/\$\{[^}]+\}/g, "arn:aws:lambda:us-east-1:123456789012:function:resolved");
    return JSON.parse(text) as Record<string, unknown>;
  } finally {
    stack.cleanup();
  }
}
const request = (definition: unknown) => JSON.stringify({ definition: JSON.stringify(definition) });

describe("Function: validateAnswer (the front's ValidateStateMachineDefinition)", () => {
  let definition: Record<string, unknown>;
  beforeAll(() => {
    definition = deployedDefinition();
  });

  it("answers OK for the pipeline's deployed definition", async () => {
    expect(validateAnswer(request(definition), await definitionCheck())).toEqual({ result: "OK", diagnostics: [], truncated: false });
  });

  it("answers FAIL from asl-validator for a transition to a state that does not exist", async () => {
    // Arrange
    const broken = { ...definition, StartAt: "NoSuchState" };
    // Act
    const answer = validateAnswer(request(broken), await definitionCheck());
    // Assert
    expect(answer.result).toBe("FAIL");
    expect(JSON.stringify(answer.diagnostics)).toContain("NoSuchState");
  });

  it("answers FAIL with the interpreter compiler's own diagnostic, naming the state, for a JSONata syntax error", async () => {
    // Arrange: the deployed definition with one JSONata expression cut short
    const broken = JSON.parse(JSON.stringify(definition).replace(" %}", " ( %}")) as unknown;
    const answer = validateAnswer(request(broken), await definitionCheck());
    expect(answer.result).toBe("FAIL");
    expect(answer.diagnostics).toContainEqual(expect.objectContaining({ message: expect.stringMatching(/^interpreter: .*\/States\/\w+(\/\w+)+: the JSONata expression/) }));
  });

  it("answers FAIL naming invalid JSON when the definition does not parse", async () => {
    const answer = validateAnswer(JSON.stringify({ definition: "{not json" }), await definitionCheck());
    expect(answer).toMatchObject({ result: "FAIL", diagnostics: [{ code: "INVALID_JSON_DESCRIPTION" }] });
  });
});

describe("Function: compactRedrivePolicy", () => {
  it("re-serialises moto's spaced RedrivePolicy compactly, keeping its content and key order", () => {
    // Arrange: moto 5.2.1's answer, verbatim
    const moto = JSON.stringify({ Attributes: { QueueArn: "arn:q", RedrivePolicy: '{"deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:payments-dlq", "maxReceiveCount": 5}' } });
    // Act
    const out = JSON.parse(compactRedrivePolicy(moto)) as { Attributes: Record<string, string> };
    // Assert
    expect(out.Attributes).toEqual({ QueueArn: "arn:q", RedrivePolicy: '{"deadLetterTargetArn":"arn:aws:sqs:us-east-1:123456789012:payments-dlq","maxReceiveCount":5}' });
  });

  it("passes an answer without a redrive policy, or one it cannot read, through unchanged", () => {
    const plain = '{"Attributes": {"QueueArn": "arn:q"}}';
    expect(compactRedrivePolicy(plain)).toBe(plain);
    expect(compactRedrivePolicy("<html>500</html>")).toBe("<html>500</html>");
    const odd = '{"Attributes": {"RedrivePolicy": "not json"}}';
    expect(compactRedrivePolicy(odd)).toBe(odd);
  });
});

describe("Function: startFront (a queue policy kept through an update of its queue)", () => {
  /** A stand-in for moto: answers GetQueueAttributes with a Policy and records every SetQueueAttributes it gets. */
  async function upstream(policy: string | undefined) {
    const sets: Record<string, unknown>[] = [];
    const server = createServer((req, res) => {
      void readBody(req).then((body) => {
        const op = String(req.headers["x-amz-target"] ?? "");
        if (op === "AmazonSQS.GetQueueAttributes") return replyJson(res, 200, { Attributes: policy === undefined ? {} : { Policy: policy } });
        if (op === "AmazonSQS.SetQueueAttributes") sets.push(JSON.parse(body.toString("utf8")) as Record<string, unknown>);
        return replyJson(res, 200, {});
      });
    });
    const endpoint = await listenOnLoopback(server);
    return { endpoint, sets, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  const setAttributes = (endpoint: string, attributes: Record<string, string>) =>
    fetch(endpoint, { method: "POST", headers: { "x-amz-target": "AmazonSQS.SetQueueAttributes", "content-type": "application/x-amz-json-1.0" }, body: JSON.stringify({ QueueUrl: "http://q/payments-dlq", Attributes: attributes }) });

  it.each([
    ["adds the queue's current Policy to a call that names none (moto would clear it; AWS keeps it)", "POLICY", { VisibilityTimeout: "780" }, { VisibilityTimeout: "780", Policy: "POLICY" }],
    ["leaves a call that names a Policy as it is", "POLICY", { Policy: "NEW" }, { Policy: "NEW" }],
    ["leaves a call on a queue without a policy as it is", undefined, { VisibilityTimeout: "780" }, { VisibilityTimeout: "780" }],
  ])("%s", async (_case, policy, attributes, forwarded) => {
    // Arrange
    const moto = await upstream(policy);
    const front = await startFront(moto.endpoint, await definitionCheck());
    try {
      // Act
      const answer = await setAttributes(front.endpoint, attributes);
      // Assert
      expect(answer.status).toBe(200);
      expect(moto.sets).toEqual([{ QueueUrl: "http://q/payments-dlq", Attributes: forwarded }]);
    } finally {
      await front.close();
      await moto.close();
    }
  });
});
