/**
 * The end-to-end harness for any stack of the construct (`@effectively-once/local-cloud/harness`): publish bodies to a
 * running pipeline (the local cloud or AWS), wait for it to settle, and judge what a client can observe against the
 * guarantee: every message applied once, acknowledged as a duplicate, or quarantined with a reason.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { peekDlq, readEffects, verify, type DlqMessage, type KeyEffects, type SentMessage, type Verification } from "../observe";
import { labelMessages, streamContractOf, type StreamContract } from "../stack/contract";
import { publish } from "../demo/publish";

export { peekDlq, readEffects, verify, streamContractOf };
export type { DlqMessage, KeyEffects, SentMessage, StreamContract, Verification };
export { runSoak } from "../soak/soak-run";
export type { SoakOptions } from "../soak/soak-options";
export { SOAK_DEFAULTS } from "../soak/soak-options";

/** Where the harness sends and what it reads: the stack's outputs (`cloud.outputs`, or `terraform output -json` values). */
export interface HarnessTarget {
  /** The SQS client that sends to the stack's queue (`queue_url`) and peeks at its DLQ. */
  readonly sqs: SQSClient;
  /** The DynamoDB client that reads the stack's tables. */
  readonly dynamodb: DynamoDBClient;
  /** The stack's outputs: `queue_url`, `dlq_url`, the contract outputs and the tables' names. */
  readonly outputs: Readonly<Record<string, unknown>>;
}

/**
 * Sends each body (an object is sent as its JSON) in SendMessageBatch calls of 10, in order, and returns what was
 * sent, each labelled with its effect key and payload hash as the stack's contract derives them.
 */
export async function publishBodies(target: HarnessTarget, bodies: readonly (string | Readonly<Record<string, unknown>>)[]): Promise<SentMessage[]> {
  const contract = streamContractOf(target.outputs);
  const messages = await labelMessages(bodies.map((b) => ({ kind: "unique" as const, body: typeof b === "string" ? b : JSON.stringify(b) })), contract);
  return publish(target.sqs, String(target.outputs.queue_url), messages);
}

/** What a client can observe once the pipeline settled: the effect journal, the DLQ, and the guarantee checked over them. */
export interface Observation {
  /** What the effect journal recorded, by effect key. */
  readonly effects: ReadonlyMap<string, KeyEffects>;
  /** Every DLQ message, peeked (nothing consumed). */
  readonly dlq: readonly DlqMessage[];
  /** The guarantee checked over every sent message: `lost` and `doubleApplied` must be empty. */
  readonly verification: Verification;
}

/** Reads the effect journal (`effects_table_name`) and the DLQ and checks every sent message's fate. */
export async function observe(target: HarnessTarget, sent: readonly SentMessage[]): Promise<Observation> {
  const table = target.outputs.effects_table_name;
  if (typeof table !== "string") throw new Error("the stack has no effects_table_name output: add an EffectJournalTable so the harness can count effects");
  const [effects, dlq] = await Promise.all([readEffects(target.dynamodb, table), peekDlq(target.sqs, String(target.outputs.dlq_url))]);
  return { effects, dlq, verification: verify(sent, effects, dlq) };
}
export { functionEnvironment, lambdaContext, startLocalDynamoDb } from "./function-test";
export type { FunctionTables, LocalDynamoDb } from "./function-test";
