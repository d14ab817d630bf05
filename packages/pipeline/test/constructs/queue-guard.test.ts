import { GuardedAction, queueGuardOf } from "@effectively-once/contract";
import { referenceTo, resourceNamed, resourcesOfType, type SynthesizedStack, type TerraformJson } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

/** The queue policy resource whose queue_url is the queue named `*suffix`, parsed; undefined when none. */
function policyOf(json: TerraformJson, suffix: string): { queue_url: string; policy: Record<string, unknown>; text: string } | undefined {
  const url = referenceTo(json, "aws_sqs_queue", suffix, "url");
  const found = resourcesOfType(json, "aws_sqs_queue_policy").find(([, body]) => body.queue_url === url);
  if (!found) return undefined;
  const text = found[1].policy as string;
  return { queue_url: url, policy: JSON.parse(text), text };
}

/** Actions some part of the stack or its operator CLI calls on the queues: none may be denied. */
const NEEDED = [
  "sqs:SendMessage", // producers, the quarantine (workflow role), `pipeline-ops dlq redrive` to the source queue
  "sqs:ReceiveMessage",
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:GetQueueAttributes", // the pipe, `pipeline-ops`, Terraform's reads
  "sqs:SetQueueAttributes", // Terraform: the policy itself, redrive, retention
  "sqs:DeleteQueue",
  "sqs:TagQueue",
  "sqs:UntagQueue",
  "sqs:ListQueueTags",
  "sqs:CancelMessageMoveTask", // stops a move started before the policy landed
];

describe("Construct: IdempotentPipeline's queue policies", () => {
  describe("by default", () => {
    let stack: SynthesizedStack;
    beforeAll(() => {
      stack = synthStack();
    });
    afterAll(() => stack.cleanup());

    it("denies sqs:StartMessageMoveTask and sqs:PurgeQueue on the DLQ to every principal, unconditionally", () => {
      const dlq = policyOf(stack.json, "test-dlq");
      expect(dlq?.policy).toEqual({
        Version: "2012-10-17",
        Statement: [
          { Sid: "RefuseNativeMessageMoves", Effect: "Deny", Principal: "*", Action: "sqs:StartMessageMoveTask", Resource: referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "arn") },
          { Sid: "RefusePurge", Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "arn") },
        ],
      });
      const guard = queueGuardOf(dlq?.text);
      expect([guard.nativeMoves.refused, guard.purge.refused]).toEqual([true, true]);
    });

    it("denies sqs:PurgeQueue on the source queue, and nothing else", () => {
      const queue = policyOf(stack.json, "test-queue");
      expect(queue?.policy).toEqual({
        Version: "2012-10-17",
        Statement: [{ Sid: "RefusePurge", Effect: "Deny", Principal: "*", Action: "sqs:PurgeQueue", Resource: referenceTo(stack.json, "aws_sqs_queue", "test-queue", "arn") }],
      });
    });

    it("denies nothing the pipe, the quarantine, Terraform or pipeline-ops needs", () => {
      for (const suffix of ["test-dlq", "test-queue"]) {
        const statements = policyOf(stack.json, suffix)?.policy.Statement as { Action: string }[];
        const denied = statements.map((s) => s.Action);
        expect(denied.filter((a) => NEEDED.includes(a))).toEqual([]);
        expect(denied.every((a) => (Object.values(GuardedAction) as string[]).includes(a))).toBe(true);
      }
    });

    it("sets no inline policy on the queues (aws_sqs_queue.policy would fight aws_sqs_queue_policy)", () => {
      for (const suffix of ["test-dlq", "test-queue"]) expect(resourceNamed(stack.json, "aws_sqs_queue", suffix).policy).toBeUndefined();
    });
  });

  describe("opting out", () => {
    it("allowUnguardedDlqMoves drops only the move refusal: the DLQ still refuses purges", () => {
      const stack = synthStack({ allowUnguardedDlqMoves: true });
      try {
        const dlq = policyOf(stack.json, "test-dlq");
        expect((dlq?.policy.Statement as { Action: string }[]).map((s) => s.Action)).toEqual([GuardedAction.Purge]);
        expect(queueGuardOf(dlq?.text).nativeMoves.refused).toBe(false);
      } finally {
        stack.cleanup();
      }
    });

    it("both opt-outs leave no queue policy at all", () => {
      const stack = synthStack({ allowUnguardedDlqMoves: true, allowQueuePurge: true });
      try {
        expect(resourcesOfType(stack.json, "aws_sqs_queue_policy")).toEqual([]);
      } finally {
        stack.cleanup();
      }
    });
  });
});
