import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { awsCall } from "./aws-errors";
import { requireOutput } from "./outputs";
import type { OpsContext } from "./types";
import { OutputName, redriveGuardOf, type RedriveGuard, type RedriveGuards } from "@effectively-once/contract";

/**
 * What the deployed queues' redrive attributes (`RedriveAllowPolicy` of both, the DLQ's own `RedrivePolicy`) leave open
 * of SQS's second move path, the redrive policy: the stack writes the source queue `denyAll` and the DLQ `byQueue`
 * (only the source queue) and gives the DLQ no redrive policy. The rule that reads them is the contract's
 * (packages/contract/src/redrive-paths.ts), the one `npm run plan:review` and the simulation use. An edit of any shows
 * here (docs/guarantees.md, "paths back from the DLQ").
 */
export async function readRedriveGuards(ctx: OpsContext): Promise<RedriveGuards> {
  const read = async (queue: "dlq" | "source", names: string[]) => {
    const queueUrl = requireOutput(ctx, queue === "dlq" ? OutputName.DlqUrl : OutputName.QueueUrl);
    const where = { service: "SQS" as const, endpoint: ctx.endpoints?.sqs, resource: `the ${queue === "dlq" ? "DLQ" : "source queue"} ${queueUrl}` };
    const { Attributes } = await awsCall("reading the queue's redrive attributes", where, () => ctx.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: names as never })));
    return Attributes ?? {};
  };
  const source = await read("source", ["QueueArn", "RedriveAllowPolicy"]);
  const dlq = await read("dlq", ["RedrivePolicy", "RedriveAllowPolicy"]);
  return redriveGuardOf({
    sourceQueueArn: source.QueueArn,
    sourceRedriveAllowPolicy: source.RedriveAllowPolicy,
    dlqRedrivePolicy: dlq.RedrivePolicy,
    dlqRedriveAllowPolicy: dlq.RedriveAllowPolicy,
  });
}

const LABELS: readonly (readonly [keyof RedriveGuards, string])[] = [
  ["sourceAsDeadLetterQueue", "source queue as a DLQ (RedriveAllowPolicy)"],
  ["dlqRedrivePolicy", "DLQ's own redrive (RedrivePolicy)"],
  ["dlqSources", "queues dead-lettering into the DLQ (RedriveAllowPolicy)"],
];

const RISK = "a quarantined copy can come back past every check of `dlq redrive`: redeploy the stack (its RedriveAllowPolicy and no redrive policy on the DLQ) and use `dlq redrive`";

/** One WARNING line per redrive attribute edited away from what the stack writes. */
export function redriveWarnings(guards: RedriveGuards): string[] {
  return LABELS.flatMap(([field, label]) => {
    const g: RedriveGuard = guards[field];
    return g.guarded ? [] : [`WARNING: ${label}: ${g.why}; ${RISK}.`];
  });
}

/** The human view: one line per attribute. */
export function renderRedriveGuards(guards: RedriveGuards): string {
  return ["redrive paths", ...LABELS.map(([field, label]) => `  ${label}  ${guards[field].why}`)].join("\n");
}
