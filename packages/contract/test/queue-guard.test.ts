import { GuardedAction, guardedActions, queueGuardOf, queuePolicyDocument } from "../src/queue-guard";

const ARN = "arn:aws:sqs:us-east-1:123456789012:payments-dlq";
const policy = (...Statement: unknown[]) => JSON.stringify({ Version: "2012-10-17", Statement });
const deny = (extra: Record<string, unknown> = {}) => ({ Effect: "Deny", Principal: "*", Action: GuardedAction.NativeMove, Resource: ARN, ...extra });

describe("Function: queueGuardOf", () => {
  it("reads the construct's own document as refusing both actions", () => {
    const guard = queueGuardOf(queuePolicyDocument(ARN, [GuardedAction.NativeMove, GuardedAction.Purge]), ARN);
    expect(guard.nativeMoves).toEqual({ refused: true, why: expect.stringContaining("RefuseNativeMessageMoves") });
    expect(guard.purge.refused).toBe(true);
  });

  it.each([
    ["no policy", undefined],
    ["an empty Policy attribute", ""],
    ["text that is not JSON", "{not json"],
    ["an Allow-only policy", policy({ Effect: "Allow", Principal: { AWS: "arn:aws:iam::123456789012:root" }, Action: "sqs:*", Resource: ARN })],
    ["a conditional Deny", policy(deny({ Condition: { StringNotEquals: { "aws:PrincipalAccount": "123456789012" } } }))],
    ["a Deny naming one principal", policy(deny({ Principal: { AWS: "arn:aws:iam::123456789012:role/ops" } }))],
    ["a Deny of other actions", policy(deny({ Action: ["sqs:DeleteQueue", "sqs:Purge*"] }))],
    ["a Deny of another queue", policy(deny({ Resource: "arn:aws:sqs:us-east-1:123456789012:other" }))],
    ["a Deny with NotPrincipal", policy({ ...deny(), Principal: undefined, NotPrincipal: { AWS: "arn:aws:iam::123456789012:root" } })],
    ["a NotAction Deny that spares the action", policy({ Effect: "Deny", Principal: "*", NotAction: ["sqs:StartMessage*"], Resource: ARN })],
    ["a Statement keyed __proto__", '{"Version":"2012-10-17","__proto__":{"Statement":[]}}'],
  ])("counts native moves allowed with %s", (_what, text) => {
    expect(queueGuardOf(text, ARN).nativeMoves.refused).toBe(false);
  });

  it.each([
    ['Principal {"AWS": "*"}', policy(deny({ Principal: { AWS: "*" } }))],
    ['Principal {"AWS": ["*"]}', policy(deny({ Principal: { AWS: ["*"] } }))],
    ["Action sqs:*", policy(deny({ Action: "sqs:*" }))],
    ["Action sqs:startmessage* (case)", policy(deny({ Action: ["sqs:startmessage*"] }))],
    ["Resource *", policy(deny({ Resource: "*" }))],
    ["a single Statement object", JSON.stringify({ Statement: deny() })],
    ["a NotAction Deny that does not spare it", policy({ Effect: "Deny", Principal: "*", NotAction: "sqs:SendMessage", Resource: ARN })],
    ["a planned template ARN", policy(deny({ Resource: "${aws_sqs_queue.dlq.arn}" }))],
  ])("counts native moves refused with %s", (_what, text) => {
    expect(queueGuardOf(text, ARN).nativeMoves.refused).toBe(true);
  });
});

describe("Function: guardedActions", () => {
  it("refuses moves on the DLQ and purges on both by default; each opt-out removes only its own", () => {
    expect(guardedActions({ allowUnguardedDlqMoves: false, allowQueuePurge: false })).toEqual({ deadLetterQueue: [GuardedAction.NativeMove, GuardedAction.Purge], sourceQueue: [GuardedAction.Purge] });
    expect(guardedActions({ allowUnguardedDlqMoves: true, allowQueuePurge: false })).toEqual({ deadLetterQueue: [GuardedAction.Purge], sourceQueue: [GuardedAction.Purge] });
    expect(guardedActions({ allowUnguardedDlqMoves: false, allowQueuePurge: true })).toEqual({ deadLetterQueue: [GuardedAction.NativeMove], sourceQueue: [] });
    expect(queuePolicyDocument(ARN, [])).toBeUndefined();
  });
});
