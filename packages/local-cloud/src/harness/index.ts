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
import { effectsFromApplications, effectsFromInvocations, type ApplicationReader, type InvocationRecord } from "./applications";
import { parseInvocationLines } from "./invocations";
import { OutputName } from "@effectively-once/contract";

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

/** How {@link publishBodies} sends to a FIFO queue. */
export interface PublishOptions {
  /**
   * The `MessageGroupId` of each body (FIFO queues: the entity whose messages keep their order, e.g. the account id).
   * Default: one group per business key. Each send gets a deduplication id of its own: a repeated body is a second message.
   */
  readonly groupOf?: (body: string, index: number) => string;
}

/**
 * Sends each body (an object is sent as its JSON) in SendMessageBatch calls of 10, in order, and returns what was
 * sent, each labelled with its effect key and payload hash as the stack's contract derives them (and, on a FIFO queue,
 * its group: `verify` then checks each group's order).
 */
export async function publishBodies(target: HarnessTarget, bodies: readonly (string | Readonly<Record<string, unknown>>)[], options: PublishOptions = {}): Promise<SentMessage[]> {
  const contract = streamContractOf(target.outputs);
  const texts = bodies.map((b) => (typeof b === "string" ? b : JSON.stringify(b)));
  const messages = await labelMessages(texts.map((body, i) => ({ kind: "unique" as const, body, ...(options.groupOf ? { groupId: options.groupOf(body, i) } : {}) })), contract);
  return publish(target.sqs, String(target.outputs[OutputName.QueueUrl]), messages);
}

/** What a client can observe once the pipeline settled: the applications per key, the DLQ, and the guarantee checked over them. */
export interface Observation {
  /** Per effect key: its applications and the calls that reached the side effect, from the source `observe` used. */
  readonly effects: ReadonlyMap<string, KeyEffects>;
  /** Every DLQ message, peeked (nothing consumed: each is made visible again). */
  readonly dlq: readonly DlqMessage[];
  /** The guarantee checked over every sent message: `lost` and `doubleApplied` must be empty. */
  readonly verification: Verification;
  /** Where the applications were counted from. */
  readonly appliedFrom: "applications" | "invocations" | "effect-journal";
}

/**
 * Where {@link observe} counts applications, for a side effect of any kind. Without either, it reads the stack's
 * effect journal (`effects_table_name`, an `EffectJournalTable`).
 */
export interface ObserveOptions {
  /** The team's own record of applications (its table, its API): the most exact count, used first when given. */
  readonly applications?: ApplicationReader;
  /**
   * The function's invocation results: the handler wrapper's log lines (from {@link collectInvocations} on the local
   * cloud, or the function's CloudWatch log events on AWS) or records parsed from them. An invocation that ran the
   * side effect to its end is one application.
   */
  readonly invocations?: Iterable<string | InvocationRecord>;
}

const NO_SOURCE =
  "observe() needs a count of applications: pass { applications } (a reader of your side effect's own records), " +
  "or { invocations } (the function's invocation log lines: collectInvocations() on the local cloud, the log group's events on AWS), " +
  "or add an EffectJournalTable to the stack (output effects_table_name)";

async function appliedEffects(target: HarnessTarget, options: ObserveOptions): Promise<Pick<Observation, "effects" | "appliedFrom">> {
  if (options.applications) return { effects: effectsFromApplications(await options.applications()), appliedFrom: "applications" };
  if (options.invocations) {
    const lines: string[] = [];
    const records: InvocationRecord[] = [];
    for (const item of options.invocations) {
      if (typeof item === "string") lines.push(item);
      else records.push(item);
    }
    return { effects: effectsFromInvocations([...records, ...parseInvocationLines(lines)]), appliedFrom: "invocations" };
  }
  const table = target.outputs[OutputName.EffectsTable];
  if (typeof table !== "string") throw new Error(NO_SOURCE);
  return { effects: await readEffects(target.dynamodb, table), appliedFrom: "effect-journal" };
}

/**
 * Judges every sent message's fate once the pipeline settled: applied once (its key's application holds its payload),
 * acknowledged as a duplicate of an applied message, or quarantined in the DLQ with a reason; lost and double-applied
 * keys are listed. Fates come from the DLQ; applications from `options` (see {@link ObserveOptions}). Call it once at
 * a time: it reads the DLQ by receiving its messages and making them visible again.
 */
export async function observe(target: HarnessTarget, sent: readonly SentMessage[], options: ObserveOptions = {}): Promise<Observation> {
  // One after the other: a peek hides the DLQ's messages until it ends, so it must not outlive a failed read (and
  // two observe() calls must not overlap).
  const { effects, appliedFrom } = await appliedEffects(target, options);
  const dlq = await peekDlq(target.sqs, String(target.outputs[OutputName.DlqUrl]));
  return { effects, dlq, appliedFrom, verification: verify(sent, effects, dlq) };
}
export { collectInvocations, parseInvocationLines } from "./invocations";
export type { InvocationCollector } from "./invocations";
export type { Application, ApplicationReader, InvocationRecord } from "./applications";
export { functionEnvironment, lambdaContext, startLocalDynamoDb } from "./function-test";
export type { FunctionTables, LocalDynamoDb } from "./function-test";
export { DynamoPlacement, waitForTableActive } from "../dynamodb";
export { formatTable, readKeyEffects } from "../observe";
export { LoadError, LoadUsageError, SettleTimeoutError } from "../soak/errors";
export { checkFates } from "../soak/fate-checks";
export type { FateChecks } from "../soak/fate-checks";
export { FaultProfile } from "../soak/fault-profile";
export { generateStream, LoadKind, streamMix } from "../soak/generator";
export type { LoadMessage } from "../soak/generator";
export { publish } from "../soak/publisher";
export type { LoadSent } from "../soak/publisher";
export type { SoakResult } from "../soak/soak-run";
export { checkLedger } from "../soak/ledger-check";
