/**
 * SQS's second way to move messages between queues, a queue's `RedrivePolicy`, and the attribute that refuses it,
 * `RedriveAllowPolicy`: the one place the stack's rules for both are spelled. The construct writes them; `pipeline-ops
 * dlq guard`, `npm run plan:review` and the simulation read a deployed or planned queue back (`redriveGuardOf`).
 *
 * AWS (SQS API reference, CreateQueue / SetQueueAttributes, "RedriveAllowPolicy"; SQS Developer Guide, "Learn how to
 * configure a dead-letter queue redrive"):
 * - a queue's `RedrivePolicy` `{deadLetterTargetArn, maxReceiveCount}` moves a message received more than
 *   `maxReceiveCount` times to the target; any queue may have one, a DLQ too. A standard target keeps the message's
 *   id, attributes and original enqueue time; a FIFO target resets the enqueue time;
 * - the target's `RedriveAllowPolicy` says which queues may name it: `allowAll` (the default: any queue of the account
 *   and Region), `denyAll` (none), `byQueue` (only `sourceQueueArns`, at most 10);
 * - `StartMessageMoveTask` takes as its source any queue that is some SQS queue's DLQ, and as destination any queue of
 *   the same type; every moved message is a new message with a new id and enqueue time. Its message attributes stay.
 *
 * So the source queue refuses to be anyone's DLQ (`denyAll`): no redrive policy, the DLQ's own or a temporary queue's,
 * can move a quarantined copy back with its original enqueue time. A copy moved back by a message-move task from a
 * temporary queue keeps the quarantine's attributes, and the workflow recognises it (docs/guarantees.md, "paths back
 * from the DLQ"). What SQS itself takes and enforces (the redrive-allow check when a redrive policy is set) is the
 * local cloud's SQS rule, one copy for its SQS and the simulation's: packages/local-cloud/src/sqs/rules/redrive-allow.cjs.
 */

/** The values of `redrivePermission`. */
export const RedrivePermission = {
  AllowAll: "allowAll",
  DenyAll: "denyAll",
  ByQueue: "byQueue",
} as const;
export type RedrivePermission = (typeof RedrivePermission)[keyof typeof RedrivePermission];

/** The source queue's `RedriveAllowPolicy`: no queue may name it as its dead-letter queue. */
export const SOURCE_QUEUE_REDRIVE_ALLOW_POLICY = { redrivePermission: RedrivePermission.DenyAll } as const;

/** The DLQ's `RedriveAllowPolicy`: only the pipeline's source queue may name it. */
export function dlqRedriveAllowPolicy(sourceQueueArn: string): { redrivePermission: "byQueue"; sourceQueueArns: string[] } {
  return { redrivePermission: RedrivePermission.ByQueue, sourceQueueArns: [sourceQueueArn] };
}

/** A `RedriveAllowPolicy` as SQS reads it: absent = `allowAll`. */
export interface RedriveAllow {
  readonly permission: RedrivePermission;
  readonly sourceQueueArns: readonly string[];
}

const entriesOf = (value: unknown): Map<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map();

/** Reads a `RedriveAllowPolicy` text (undefined or "" = absent = `allowAll`); undefined when it is not one. */
export function readRedriveAllow(text: string | undefined): RedriveAllow | undefined {
  if (text === undefined || text.trim() === "") return { permission: RedrivePermission.AllowAll, sourceQueueArns: [] };
  let parsed: Map<string, unknown>;
  try {
    parsed = entriesOf(JSON.parse(text));
  } catch {
    return undefined;
  }
  const permission = parsed.get("redrivePermission");
  if (!Object.values(RedrivePermission).includes(permission as RedrivePermission)) return undefined;
  const arns = parsed.get("sourceQueueArns");
  return { permission: permission as RedrivePermission, sourceQueueArns: Array.isArray(arns) ? arns.filter((a): a is string => typeof a === "string") : [] };
}

/** What one queue attribute does to the paths back from the DLQ. */
export interface RedriveGuard {
  /** True when the attribute is as the stack writes it. */
  readonly guarded: boolean;
  /** One sentence: what it holds and what that means. */
  readonly why: string;
}

/** The queue attributes `redriveGuardOf` reads (GetQueueAttributes' names). */
export interface RedriveAttributes {
  readonly sourceQueueArn?: string;
  /** The source queue's `RedriveAllowPolicy`. */
  readonly sourceRedriveAllowPolicy?: string;
  /** The DLQ's own `RedrivePolicy` (none as the stack writes it). */
  readonly dlqRedrivePolicy?: string;
  /** The DLQ's `RedriveAllowPolicy`. */
  readonly dlqRedriveAllowPolicy?: string;
}

export interface RedriveGuards {
  /** Whether any queue may name the source queue as its DLQ (refused: `denyAll`). */
  readonly sourceAsDeadLetterQueue: RedriveGuard;
  /** Whether the DLQ has a redrive policy of its own (it moves copies a receiver reads too often to another queue). */
  readonly dlqRedrivePolicy: RedriveGuard;
  /** Whether queues other than the source queue may name the DLQ. */
  readonly dlqSources: RedriveGuard;
}

/**
 * Reads the three attributes the stack owns for the redrive paths. An edit of any (by hand, by another stack) shows as
 * `guarded: false`, with what it opens.
 */
export function redriveGuardOf(a: RedriveAttributes): RedriveGuards {
  const source = readRedriveAllow(a.sourceRedriveAllowPolicy);
  const sourceAsDeadLetterQueue: RedriveGuard =
    source?.permission === RedrivePermission.DenyAll
      ? { guarded: true, why: "refused: the source queue's RedriveAllowPolicy is denyAll, so no queue can name it as its dead-letter queue" }
      : {
          guarded: false,
          why: `allowed: the source queue's RedriveAllowPolicy is ${a.sourceRedriveAllowPolicy?.trim() ? a.sourceRedriveAllowPolicy : "absent (allowAll)"}, so a queue named there (the DLQ, or a temporary queue) can move quarantined copies back with their original enqueue time`,
        };
  const dlqRedrivePolicy: RedriveGuard =
    a.dlqRedrivePolicy === undefined || a.dlqRedrivePolicy.trim() === ""
      ? { guarded: true, why: "none: the DLQ moves no message on its own" }
      : { guarded: false, why: `set: the DLQ's own RedrivePolicy ${a.dlqRedrivePolicy} moves a copy read more than maxReceiveCount times to that queue, from where a message-move task can send it anywhere` };
  const dlq = readRedriveAllow(a.dlqRedriveAllowPolicy);
  const onlySource = dlq?.permission === RedrivePermission.ByQueue && dlq.sourceQueueArns.length > 0 && dlq.sourceQueueArns.every((arn) => arn === a.sourceQueueArn);
  const dlqSources: RedriveGuard = onlySource
    ? { guarded: true, why: "only the source queue may name the DLQ as its dead-letter queue (byQueue)" }
    : { guarded: false, why: `the DLQ's RedriveAllowPolicy is ${a.dlqRedriveAllowPolicy?.trim() ? a.dlqRedriveAllowPolicy : "absent (allowAll)"}: other queues may dead-letter into it, and their messages carry no quarantine of this pipeline` };
  return { sourceAsDeadLetterQueue, dlqRedrivePolicy, dlqSources };
}
