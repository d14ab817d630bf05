import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { awsCall } from "./aws-errors";
import { requireOutput } from "./outputs";
import type { OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";
import { GuardedAction, queueGuardOf, type ActionGuard } from "@effectively-once/contract";

/**
 * What a deployed queue's policy (its `Policy` attribute, read with GetQueueAttributes) does to SQS's own actions that
 * bypass `dlq redrive`'s guards: a native message move (the console's "Start DLQ redrive") and a purge. The rule that
 * reads the policy is the contract's (packages/contract/src/queue-guard.ts), the one `npm run plan:review` and the simulation use.
 */
export interface DeployedQueueGuard {
  readonly queue: "dlq" | "source";
  readonly queueUrl: string;
  /** Only for the DLQ: moves start from a dead-letter queue. */
  readonly nativeMoves?: ActionGuard;
  readonly purge: ActionGuard;
}

async function readGuard(ctx: OpsContext, queue: "dlq" | "source"): Promise<DeployedQueueGuard> {
  const queueUrl = requireOutput(ctx, queue === "dlq" ? OutputName.DlqUrl : OutputName.QueueUrl);
  const where = { service: "SQS" as const, endpoint: ctx.endpoints?.sqs, resource: `the ${queue === "dlq" ? "DLQ" : "source queue"} ${queueUrl}` };
  const { Attributes } = await awsCall("reading the queue's policy", where, () =>
    ctx.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["Policy", "QueueArn"] })),
  );
  const guard = queueGuardOf(Attributes?.Policy, Attributes?.QueueArn);
  return { queue, queueUrl, ...(queue === "dlq" ? { nativeMoves: guard.nativeMoves } : {}), purge: guard.purge };
}

/**
 * The DLQ's guard (native moves and purges) for `dlq list` / `dlq redrive`; undefined when it cannot be read: the
 * command's own scan then reports why (the same call, the same permission), so a second error would be noise.
 */
export async function readDlqGuard(ctx: OpsContext): Promise<DeployedQueueGuard | undefined> {
  return readGuard(ctx, "dlq").catch(() => undefined);
}

/** Both queues' guards (`dlq guard`): the DLQ's, then the source queue's (purges only). */
export async function readQueueGuards(ctx: OpsContext): Promise<DeployedQueueGuard[]> {
  return [await readGuard(ctx, "dlq"), await readGuard(ctx, "source")];
}

const RISK: ReadonlyMap<string, string> = new Map([
  [
    GuardedAction.NativeMove,
    "SQS's own DLQ redrive (the console's \"Start DLQ redrive\", StartMessageMoveTask) gives each moved message a new id, enqueue time and retention and skips every check of `dlq redrive` (its age, its key's memory, a payload conflict, the pipe's filter): a moved message can be applied twice or lost. Use `dlq redrive`",
  ],
  [GuardedAction.Purge, "a purge deletes every message of the queue: they are neither applied nor quarantined"],
]);

/** One WARNING line per action a queue lets through (or whose guard could not be read). */
export function guardWarnings(guard: DeployedQueueGuard | undefined): string[] {
  if (!guard) return [];
  const name = guard.queue === "dlq" ? "the DLQ" : "the source queue";
  const lines: string[] = [];
  const check = (action: GuardedAction, g: ActionGuard | undefined) => {
    if (!g || g.refused) return;
    lines.push(`WARNING: ${name} (${guard.queueUrl}) allows ${action}: ${g.why}. ${RISK.get(action)}.`);
  };
  check(GuardedAction.NativeMove, guard.nativeMoves);
  check(GuardedAction.Purge, guard.purge);
  return lines;
}

/** The human view of `dlq guard`: one line per queue and action. */
export function renderGuards(guards: readonly DeployedQueueGuard[]): string {
  const rows = guards.flatMap((g) => [
    ...(g.nativeMoves ? [`${g.queue === "dlq" ? "DLQ" : "source queue"} ${g.queueUrl}\n  native moves (${GuardedAction.NativeMove})  ${g.nativeMoves.why}`] : [`${g.queue === "dlq" ? "DLQ" : "source queue"} ${g.queueUrl}`]),
    `  purge (${GuardedAction.Purge})  ${g.purge.why}`,
  ]);
  return rows.join("\n");
}
