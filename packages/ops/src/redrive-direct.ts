import { randomUUID } from "node:crypto";
import type { Message, MessageAttributeValue } from "@aws-sdk/client-sqs";
import { StartSyncExecutionCommand } from "@aws-sdk/client-sfn";
import { toSqsRecord } from "@effectively-once/contract/pipe-filter";
import { OutputName, SYNC_EXECUTION_INPUT_BYTES } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { TargetError } from "./errors";
import { requireOutput } from "./outputs";
import type { OpsContext } from "./types";

type Attributes = Record<string, MessageAttributeValue>;

/** What the state machine said about one directly delivered record. */
export type DirectAnswer =
  /** Its record ended in an outcome other than retry (processed, duplicate, or quarantined again: a new DLQ copy). */
  | { readonly settled: true; readonly messageId: string; readonly executionArn?: string }
  /** Retried, failed, timed out or unreadable: the DLQ copy must stay. */
  | { readonly settled: false; readonly messageId: string; readonly why: string };

/**
 * The one SQS record a direct delivery hands the state machine, shaped as the pipe builds it (contract's
 * `toSqsRecord`): the DLQ copy's body, the redrive copy's attributes (the producer's own and `firstSentTimestamp`),
 * and a fresh message id, as a send to the source queue would get one. SentTimestamp is the delivery's own moment,
 * so the workflow bounds `firstSentTimestamp` exactly as for a copy SQS stamped.
 */
export function directRecord(ctx: Pick<OpsContext, "outputs">, body: string, attributes: Attributes, nowMs: number, messageId = randomUUID()): string {
  const text = (name: string) => (typeof ctx.outputs[name] === "string" ? (ctx.outputs[name] as string) : "");
  const now = String(nowMs);
  const message: Message = {
    MessageId: messageId,
    ReceiptHandle: `direct-${messageId}`,
    Body: body,
    MessageAttributes: attributes,
    Attributes: { ApproximateReceiveCount: "1", SentTimestamp: now, ApproximateFirstReceiveTimestamp: now },
  };
  return JSON.stringify([toSqsRecord(message, text(OutputName.QueueArn), text(OutputName.Region))]);
}

/** Why a record cannot be started directly (StartSyncExecution's `input` is at most 262,144 bytes of UTF-8), or undefined. */
export function directSizeProblem(input: string): string | undefined {
  const bytes = Buffer.byteLength(input);
  return bytes <= SYNC_EXECUTION_INPUT_BYTES
    ? undefined
    : `the record would be ${bytes} bytes of execution input, over StartSyncExecution's ${SYNC_EXECUTION_INPUT_BYTES}: no route can carry it; send it again within the limit`;
}

/**
 * Starts the stack's state machine on one record (StartSyncExecution: the pipe's own call) and reads its answer as
 * the pipe does: a SUCCEEDED execution whose `batchItemFailures` does not name the record settled it; anything else
 * (listed for retry, FAILED, TIMED_OUT, an answer without the list) leaves it unsettled, so the caller keeps the DLQ
 * copy. The ledger guards this route as it guards the pipe's, so a copy of an applied key is answered as a duplicate.
 */
export async function deliverDirect(ctx: OpsContext, input: string, messageId: string): Promise<DirectAnswer> {
  const arn = requireOutput(ctx, OutputName.StateMachineArn);
  if (!ctx.sfn) throw new TargetError(`${ctx.targetLabel}: no Step Functions client to start ${arn} (the local cloud's state file names no stepfunctions endpoint: restart it)`);
  const sfn = ctx.sfn;
  const answer = await awsCall("starting the state machine", { service: "Step Functions" as const, endpoint: ctx.endpoints?.stepfunctions, resource: `the state machine ${arn}` }, () =>
    sfn.send(new StartSyncExecutionCommand({ stateMachineArn: arn, input })),
  );
  if (answer.status !== "SUCCEEDED") {
    return { settled: false, messageId, why: `the execution ended ${answer.status}${answer.error ? ` (${answer.error})` : ""}: the pipe would hand the record back too` };
  }
  const failures = batchItemFailures(answer.output);
  if (failures === undefined) return { settled: false, messageId, why: "the execution's output has no batchItemFailures list (the pipe treats that as a failed batch)" };
  if (failures.includes(messageId)) return { settled: false, messageId, why: "the workflow asked for a retry (its key is busy, or a step failed transiently): run the redrive again later" };
  return { settled: true, messageId, ...(answer.executionArn ? { executionArn: answer.executionArn } : {}) };
}

/** The item identifiers of a `{"batchItemFailures":[...]}` answer; undefined for any other shape. */
function batchItemFailures(output: string | undefined): string[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(output ?? "");
  } catch {
    return undefined;
  }
  const list = parsed !== null && typeof parsed === "object" ? (parsed as { batchItemFailures?: unknown }).batchItemFailures : undefined;
  if (!Array.isArray(list)) return undefined;
  return list.map((item) => String((item as { itemIdentifier?: unknown } | null)?.itemIdentifier));
}
