import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { describeAwsError } from "./aws-errors";
import { requireOutput } from "./outputs";
import type { OpsContext } from "./types";
import { OutputName } from "@effectively-once/pipeline/internal/src/contract/outputs";
import { GuardedAction, queueGuardOf, type ActionGuard } from "@effectively-once/pipeline/internal/src/contract/queue-guard";

/**
 * What a deployed queue's policy (its `Policy` attribute, read with GetQueueAttributes) does to SQS's own actions that
 * bypass `dlq redrive`'s guards: a native message move (the console's "Start DLQ redrive") and a purge. The rule that
 * reads the policy is the contract's (src/contract/queue-guard.ts), the one `npm run plan` and the simulation use.
 */
export interface DeployedQueueGuard {
  readonly queue: "dlq" | "source";
  readonly queueUrl: string;
  /** Absent when the policy could not be read (`why` of each action says so). */
  readonly policyRead: boolean;
  /** Only for the DLQ: moves start from a dead-letter queue. */
  readonly nativeMoves?: ActionGuard;
  readonly purge: ActionGuard;
}

async function readGuard(ctx: OpsContext, queue: "dlq" | "source"): Promise<DeployedQueueGuard> {
  const queueUrl = requireOutput(ctx, queue === "dlq" ? OutputName.DlqUrl : OutputName.QueueUrl);
  try {
    const { Attributes } = await ctx.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["Policy", "QueueArn"] }));
    const guard = queueGuardOf(Attributes?.Policy, Attributes?.QueueArn);
    return { queue, queueUrl, policyRead: true, ...(queue === "dlq" ? { nativeMoves: guard.nativeMoves } : {}), purge: guard.purge };
  } catch (error) {
    // A guard that cannot be read is reported, never taken for a refusal; the command itself goes on.
    const why = `unknown: ${describeAwsError(error, "reading the queue's policy", { service: "SQS", endpoint: ctx.endpoints?.sqs }).message}`;
    const unknown: ActionGuard = { refused: false, why };
    return { queue, queueUrl, policyRead: false, ...(queue === "dlq" ? { nativeMoves: unknown } : {}), purge: unknown };
  }
}

/** The DLQ's guard: native moves and purges. */
export function readDlqGuard(ctx: OpsContext): Promise<DeployedQueueGuard> {
  return readGuard(ctx, "dlq");
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
export function guardWarnings(guard: DeployedQueueGuard): string[] {
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
