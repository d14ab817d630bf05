/**
 * SQS's rules, one copy for both SQS implementations: the local SQS's fidelity layer (sqs/fidelity/, plain ESM in
 * fauxqs's worker) imports the plain CommonJS modules of sqs/rules/ directly, and the deterministic simulation's SQS
 * (tools/sim) reads them, typed, through this entry (`@effectively-once/local-cloud/sqs-rules`). Each store keeps its
 * own state (fauxqs's queues, the simulation's virtual-clock model); the rules decide. A change to an SQS rule is made
 * in its sqs/rules/ module, and both the local SQS's suites and the simulation's see it.
 */
import type { MessageAttributeValue } from "@aws-sdk/client-sqs";

/** What SQS answers for a broken rule: the error's name (its code), its message, and the HTTP status when not 400. */
export interface SqsRuleProblem {
  readonly code: string;
  readonly message: string;
  readonly status?: number;
}

/** A `RedriveAllowPolicy` as SQS reads it. */
export interface RedriveAllow {
  readonly redrivePermission: "allowAll" | "denyAll" | "byQueue";
  readonly sourceQueueArns: readonly string[];
}

/** A message a FIFO receive may take: its group, its arrival in the queue, whether it is in flight. */
export interface FifoCandidate<T> {
  readonly group: string;
  readonly arrival: number;
  readonly inFlight: boolean;
  readonly item: T;
}

/** What a message-move task's copy keeps of the message it moves. */
export interface MovedCopy {
  readonly body: string;
  readonly attributes?: Record<string, MessageAttributeValue>;
  readonly senderId?: string;
  readonly traceHeader?: string;
  readonly groupId?: string;
  readonly deduplicationId?: string;
}

type Attributes = Record<string, MessageAttributeValue> | undefined;

/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS shared with the fauxqs worker */
const attributes = require("./sqs/rules/message-attributes.cjs") as {
  INVALID_SQS_CHARACTER: RegExp;
  MAX_ATTRIBUTES: number;
  checkMessageAttributes(attributes: Attributes): SqsRuleProblem | undefined;
  attributeBytes(attributes: Attributes): number;
  md5OfMessageAttributes(attributes: Attributes): string;
};
const fifo = require("./sqs/rules/fifo.cjs") as {
  FIFO_ID: RegExp;
  fifoIdProblem(ids: { MessageGroupId?: string; MessageDeduplicationId?: string }, queue: { contentBasedDeduplication: boolean } | undefined, inBatch: boolean): SqsRuleProblem | undefined;
  contentDeduplicationId(body: string): string;
  deduplicationKey(scope: string | undefined, group: string | undefined, id: string): string;
  fifoReceiveOrder<T>(messages: readonly FifoCandidate<T>[]): T[];
};
const redrive = require("./sqs/rules/redrive.cjs") as {
  deadLettersAtReceive(receives: number, maxReceiveCount: number): boolean;
  deadLetterStamp(sourceArn: string, dlqIsFifo: boolean, now: number): { deadLetterQueueSourceArn: string; movedAt: number; retainedFrom: number | undefined };
  retentionEnd(retainedFrom: number, retentionSeconds: number): number;
  retentionExpired(retainedFrom: number, retentionSeconds: number, now: number): boolean;
};
const redriveAllow = require("./sqs/rules/redrive-allow.cjs") as {
  readRedriveAllowPolicy(text: string | undefined): { allow?: RedriveAllow; problem?: SqsRuleProblem };
  redrivePolicyProblem(redrivePolicy: string, sourceArn: string, targetArn: string, targetAllowText: string | undefined): SqsRuleProblem | undefined;
};
const moveTasks = require("./sqs/rules/move-tasks.cjs") as {
  MAX_MOVE_RATE: number;
  moveTaskStartProblem(task: { source?: { fifo: boolean }; sourceIsDeadLetterQueue: boolean; destinationArn?: string; destination?: { fifo: boolean }; rate?: number; running: boolean }): SqsRuleProblem | undefined;
  movesAllowed(rate: number | undefined, elapsedMs: number): number;
  movedCopy(message: MovedCopy): MovedCopy;
  moveDestinationArn(destinationArn: string | undefined, deadLetterQueueSourceArn: string | undefined): string | undefined;
};
const receiptHandles = require("./sqs/rules/receipt-handles.cjs") as {
  MAX_VISIBILITY: number;
  deleteDecision(call: { handle: unknown; issued: boolean; latestHandle: string | undefined }): { problem?: SqsRuleProblem; deletes?: boolean };
  visibilityDecision(call: { handle: unknown; seconds: unknown; issued: boolean; present: boolean; inFlight: boolean }): { problem?: SqsRuleProblem; changes?: boolean };
};
const queuePolicy = require("./sqs/rules/queue-policy.cjs") as {
  policyProblem(text: string | undefined): SqsRuleProblem | undefined;
  policyDenial(policy: string | undefined, action: string, queueArn: string, caller: string | undefined): SqsRuleProblem | undefined;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** AWS's characters of a message body or attribute value, negated: a match is a character SQS refuses. */
export const INVALID_SQS_CHARACTER: RegExp = attributes.INVALID_SQS_CHARACTER;
/** Message attributes: the first rule broken (SendMessage answers it), their size, their MD5. */
export const { checkMessageAttributes, attributeBytes, md5OfMessageAttributes } = attributes;
/** FIFO: the ids' rules, content-based deduplication, the deduplication scope, the receive order. */
export const { fifoIdProblem, contentDeduplicationId, deduplicationKey, fifoReceiveOrder } = fifo;
/** The redrive policy's move and retention. */
export const { deadLettersAtReceive, deadLetterStamp, retentionEnd, retentionExpired } = redrive;
/** RedriveAllowPolicy: reading it, and whether a redrive policy may name a queue. */
export const { readRedriveAllowPolicy, redrivePolicyProblem } = redriveAllow;
/** Message-move tasks: whether one may start, its rate, what a copy keeps, where it goes. */
export const { moveTaskStartProblem, movesAllowed, movedCopy, moveDestinationArn } = moveTasks;
/** Receipt handles: what DeleteMessage and ChangeMessageVisibility do with one. */
export const { deleteDecision, visibilityDecision } = receiptHandles;
/** A queue policy's explicit Deny, as SQS evaluates it for a call (and the policies it cannot evaluate exactly). */
export const { policyProblem, policyDenial } = queuePolicy;
