/**
 * The end-to-end harness for any stack of the construct (the package's `./harness` entry): publish bodies to a
 * running pipeline (the local cloud or AWS), wait for it to settle, and judge what a client can observe against the
 * guarantee: every message applied once, acknowledged as a duplicate, or quarantined with a reason.
 */
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { peekDlq, readEffects, verify, type DlqMessage, type KeyEffects, type SentMessage, type Verification } from "../observe";
import { labelMessages, streamContractOf, type StreamContract } from "../stack/contract";
import { publish } from "../demo/publish";
import { OutputName } from "@effectively-once/pipeline/internal/src/contract/outputs";

export { peekDlq, readEffects, verify, streamContractOf };
export type { DlqMessage, KeyEffects, SentMessage, StreamContract, Verification };
export { runSoak } from "../soak/soak-run";
export type { SoakOptions } from "../soak/soak-options";
export { SOAK_DEFAULTS } from "../soak/soak-options";

/** Where the harness sends and what it reads: the stack's outputs (`cloud.outputs`, or `terraform output -json` values). */
export interface HarnessTarget {
  readonly sqs: SQSClient;
  readonly dynamodb: DynamoDBClient;
  readonly outputs: Readonly<Record<string, unknown>>;
}

/**
 * Sends each body (an object is sent as its JSON) in SendMessageBatch calls of 10, in order, and returns what was
 * sent, each labelled with its effect key and payload hash as the stack's contract derives them.
 */
export async function publishBodies(target: HarnessTarget, bodies: readonly (string | Readonly<Record<string, unknown>>)[]): Promise<SentMessage[]> {
  const contract = streamContractOf(target.outputs);
  const messages = await labelMessages(bodies.map((b) => ({ kind: "unique" as const, body: typeof b === "string" ? b : JSON.stringify(b) })), contract);
  return publish(target.sqs, String(target.outputs[OutputName.QueueUrl]), messages);
}

/** What a client can observe once the pipeline settled: the effect journal, the DLQ, and the guarantee checked over them. */
export interface Observation {
  readonly effects: ReadonlyMap<string, KeyEffects>;
  readonly dlq: readonly DlqMessage[];
  readonly verification: Verification;
}

/** Reads the effect journal (`effects_table_name`) and the DLQ and checks every sent message's fate. */
export async function observe(target: HarnessTarget, sent: readonly SentMessage[]): Promise<Observation> {
  const table = target.outputs[OutputName.EffectsTable];
  if (typeof table !== "string") throw new Error("the stack has no effects_table_name output: add an EffectJournalTable so the harness can count effects");
  const [effects, dlq] = await Promise.all([readEffects(target.dynamodb, table), peekDlq(target.sqs, String(target.outputs[OutputName.DlqUrl]))]);
  return { effects, dlq, verification: verify(sent, effects, dlq) };
}
export { functionEnvironment, lambdaContext, startLocalDynamoDb } from "./function-test";
export type { FunctionTables, LocalDynamoDb } from "./function-test";
