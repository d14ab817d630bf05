/**
 * SQS's own actions that bypass every redrive guard, and the queue policy that refuses them: the one place they are
 * spelled. The construct writes the policy (`queuePolicyDocument`); `pipeline-ops` and `npm run plan:review` read a
 * deployed or planned one back (`queueGuardOf`: is the guard in place, by which statement, also without the queue's ARN).
 * How SQS itself evaluates a Deny for one call is the SQS implementations' rule (packages/local-cloud/src/sqs/rules/queue-policy.cjs).
 *
 * - `sqs:StartMessageMoveTask` (the console's "Start DLQ redrive", `aws sqs start-message-move-task`): SQS gives every
 *   moved message a new message id and enqueue time and resets its retention (AWS, "Learn how to configure a
 *   dead-letter queue redrive"). The copy skips `pipeline-ops dlq redrive`'s checks: its age, its key's memory, a
 *   payload conflict, the pipe's filter. `sqs:CancelMessageMoveTask` is not refused: it can only stop such a move.
 * - `sqs:PurgeQueue` deletes every message of a queue: the DLQ's quarantined copies, or the source queue's unprocessed
 *   ones. Neither ends in one of the three fates.
 *
 * An explicit Deny in a queue (resource-based) policy overrides every Allow, also of a principal of the queue's own
 * account (AWS IAM, "Policy evaluation for requests within a single account"), so `Principal: "*"` refuses the
 * action to administrators and the console alike. Nothing the pipeline, Terraform or `pipeline-ops` calls is denied.
 */

/** The IAM actions the stack refuses by default. */
export const GuardedAction = {
  /** SQS's native DLQ redrive (console, CLI, API): refused on the DLQ. */
  NativeMove: "sqs:StartMessageMoveTask",
  /** Deletes every message of a queue: refused on both queues. */
  Purge: "sqs:PurgeQueue",
} as const;
export type GuardedAction = (typeof GuardedAction)[keyof typeof GuardedAction];

/** Statement ids the construct writes (readers never rely on them: any explicit unconditional Deny counts). */
const STATEMENT_ID: ReadonlyMap<GuardedAction, string> = new Map([
  [GuardedAction.NativeMove, "RefuseNativeMessageMoves"],
  [GuardedAction.Purge, "RefusePurge"],
]);

/** Which queue refuses what, given the stack's two opt-outs (`allowUnguardedDlqMoves`, `allowQueuePurge`). */
export function guardedActions(options: { readonly allowUnguardedDlqMoves: boolean; readonly allowQueuePurge: boolean }): {
  readonly deadLetterQueue: readonly GuardedAction[];
  readonly sourceQueue: readonly GuardedAction[];
} {
  const purge = options.allowQueuePurge ? [] : [GuardedAction.Purge];
  return { deadLetterQueue: [...(options.allowUnguardedDlqMoves ? [] : [GuardedAction.NativeMove]), ...purge], sourceQueue: purge };
}

/** The Sids of the guard's statements: no other statement of the queue's policy may carry one. */
export const GUARD_STATEMENT_IDS: readonly string[] = [...STATEMENT_ID.values()];

/**
 * What the pipeline, Terraform and `pipeline-ops` call on the queues (producers' sends included): a statement a team
 * adds to a queue's policy may not deny any of them. Batch calls are authorized as their single action.
 */
export const QUEUE_ACTIONS_IN_USE: readonly string[] = [
  "sqs:SendMessage", // producers, the quarantine (workflow role), `pipeline-ops dlq redrive`
  "sqs:ReceiveMessage", // the pipe, `pipeline-ops dlq list`
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:GetQueueAttributes", // the pipe, `pipeline-ops`, Terraform's reads
  "sqs:GetQueueUrl",
  "sqs:SetQueueAttributes", // Terraform: the policy itself, redrive, retention
  "sqs:DeleteQueue",
  "sqs:TagQueue",
  "sqs:UntagQueue",
  "sqs:ListQueueTags",
  "sqs:CancelMessageMoveTask", // stops a move started before the policy landed
];

/** The Deny statements refusing `actions` on `queueArn` to every principal, in the order the policy lists them. */
export function guardStatements(queueArn: string, actions: readonly GuardedAction[]): Record<string, unknown>[] {
  return actions.map((action) => ({ Sid: STATEMENT_ID.get(action), Effect: "Deny", Principal: "*", Action: action, Resource: queueArn }));
}

/**
 * The queue policy refusing `actions` on `queueArn` to every principal (a JSON text, as `aws_sqs_queue_policy`
 * takes it); undefined when nothing is refused (no policy at all). The construct adds the team's statements after
 * these (packages/pipeline/src/constructs/queue-access.ts).
 */
export function queuePolicyDocument(queueArn: string, actions: readonly GuardedAction[]): string | undefined {
  if (actions.length === 0) return undefined;
  return JSON.stringify({ Version: "2012-10-17", Statement: guardStatements(queueArn, actions) });
}

/** What a queue's policy does to one guarded action. */
export interface ActionGuard {
  readonly refused: boolean;
  /** One sentence: the statement that refuses it, or why nothing does. */
  readonly why: string;
}

export interface QueueGuard {
  readonly nativeMoves: ActionGuard;
  readonly purge: ActionGuard;
}

const entriesOf = (value: unknown): Map<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? new Map(Object.entries(value)) : new Map();

const listOf = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** IAM's wildcard match (`*`, `?`), case-insensitive as action names are. */
export function wildcardMatches(pattern: string, value: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "i");
  return re.test(value);
}

/** `Principal: "*"` or `{"AWS": "*"}` (or a list holding `*`): every principal, of any account. */
function everyPrincipal(principal: unknown): boolean {
  if (principal === "*") return true;
  return listOf(entriesOf(principal).get("AWS")).some((p) => p === "*");
}

function resourceCovers(resource: unknown, queueArn: string | undefined): boolean {
  return listOf(resource).some((r) => typeof r === "string" && (r === "*" || queueArn === undefined || wildcardMatches(r, queueArn) || r.includes("${")));
}

/** Why this statement refuses `action` on the queue to everyone, unconditionally; undefined when it does not. */
function refusal(statement: unknown, action: string, queueArn: string | undefined): string | undefined {
  const s = entriesOf(statement);
  if (s.get("Effect") !== "Deny" || s.has("Condition") || s.has("NotPrincipal") || s.has("NotResource")) return undefined;
  if (!everyPrincipal(s.get("Principal")) || !resourceCovers(s.get("Resource"), queueArn)) return undefined;
  const actions = listOf(s.has("NotAction") ? s.get("NotAction") : s.get("Action")).filter((a): a is string => typeof a === "string");
  const named = actions.some((a) => wildcardMatches(a, action));
  if (s.has("NotAction") ? named : !named) return undefined;
  const sid = s.get("Sid");
  return `an explicit Deny of ${action} to every principal (statement ${typeof sid === "string" && sid ? sid : "without Sid"})`;
}

function guardOf(statements: readonly unknown[], action: GuardedAction, queueArn: string | undefined): ActionGuard {
  for (const statement of statements) {
    const why = refusal(statement, action, queueArn);
    if (why) return { refused: true, why: `refused: ${why}` };
  }
  return { refused: false, why: `allowed: no statement of the queue policy denies ${action} to every principal without a condition` };
}

/**
 * Reads a queue's policy (the `Policy` attribute, or a planned document; undefined or "" = none) for the guarded
 * actions. Only an explicit, unconditional Deny to every principal counts as a refusal: an Allow-only policy, a
 * conditional Deny or one naming some principals leaves the action to whoever IAM lets call it. A text that is not
 * a policy document refuses nothing. `queueArn` narrows the statements to those whose Resource covers it.
 */
export function queueGuardOf(policy: string | undefined, queueArn?: string): QueueGuard {
  if (policy === undefined || policy.trim() === "") {
    const none = (action: GuardedAction): ActionGuard => ({ refused: false, why: `allowed: the queue has no policy, so nothing denies ${action}` });
    return { nativeMoves: none(GuardedAction.NativeMove), purge: none(GuardedAction.Purge) };
  }
  let statements: unknown[];
  try {
    statements = listOf(entriesOf(JSON.parse(policy)).get("Statement"));
  } catch {
    const unreadable = (action: GuardedAction): ActionGuard => ({ refused: false, why: `allowed: the queue policy is not JSON, so nothing is known to deny ${action}` });
    return { nativeMoves: unreadable(GuardedAction.NativeMove), purge: unreadable(GuardedAction.Purge) };
  }
  return { nativeMoves: guardOf(statements, GuardedAction.NativeMove, queueArn), purge: guardOf(statements, GuardedAction.Purge, queueArn) };
}
