import type { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import type { SFNClient } from "@aws-sdk/client-sfn";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DlqReason } from "@effectively-once/contract";

/** Everything a command needs, passed in (clients are built at the CLI edge, or by a test). */
export interface OpsContext {
  readonly sqs: SQSClient;
  readonly dynamodb: DynamoDBDocumentClient;
  /** Step Functions, for `dlq redrive --direct` (StartSyncExecution); absent where no command needs it. */
  readonly sfn?: SFNClient;
  /** The stack's outputs (raw values, checked by `requireOutput`). */
  readonly outputs: Readonly<Record<string, unknown>>;
  /** Where the outputs came from, for error messages (e.g. "local cloud (.local-cloud/state.json)"). */
  readonly targetLabel: string;
  /** Explicit endpoints, for error messages only (absent = the AWS default for the region). */
  readonly endpoints?: { readonly sqs?: string; readonly dynamodb?: string; readonly stepfunctions?: string };
  /** Epoch milliseconds; injectable for tests. */
  readonly now: () => number;
  /** CloudWatch, for a deployed stack's alarms and metrics; absent for the local cloud, which has none. */
  readonly cloudwatch?: CloudWatchClient;
  /** The target options as typed, for the commands a command suggests (e.g. `--local`). */
  readonly targetArgs?: readonly string[];
  /**
   * Reads the deployed function's configuration (Lambda's GetFunctionConfiguration: name and environment variables),
   * which says which idempotency records it honours (function-ids.ts). Absent, or failing: ops counts none of them as
   * a key's memory, and says so.
   */
  readonly functionConfiguration?: (functionName: string) => Promise<FunctionConfiguration>;
}

/** What ops reads of a function's configuration. */
export interface FunctionConfiguration {
  readonly functionName?: string;
  /** `Environment.Variables`; absent when the function has none. */
  readonly variables?: Readonly<Record<string, string>>;
}

/** Where a DLQ entry's business key came from. */
export const KeySource = {
  /** The state machine's `businessKey` message attribute. */
  Attribute: "attribute",
  /** Evaluated from the body with the key expression (messages the queue's redrive moved carry no attributes). */
  Body: "body",
} as const;
export type KeySource = (typeof KeySource)[keyof typeof KeySource];

/** One DLQ message, as the commands report it. */
export interface DlqEntry {
  readonly messageId: string;
  readonly reason: DlqReason | string;
  readonly businessKey?: string;
  readonly keySource?: KeySource;
  /** The source queue's messageId (the state machine's `originalMessageId`; the same id for `retries-exhausted`). */
  readonly originalMessageId: string;
  readonly detail?: string;
  /** Epoch ms when the message was sent to the DLQ (for `retries-exhausted`: when the producer sent it). */
  readonly sentAt?: number;
  /**
   * Epoch ms of the producer's first send of this message, which bounds how long the ledger remembers its key:
   * the `firstSentTimestamp` attribute (set by the quarantine and by `dlq redrive`, so it survives every cycle),
   * else `sentAt` (a message the queue's redrive moved keeps its original enqueue time).
   */
  readonly firstSentAt?: number;
  readonly ageMs?: number;
  readonly receiveCount?: number;
  readonly body: string;
  /** Not written by the stack's quarantine: moved to the DLQ by the queue's redrive policy (or sent by anyone else). */
  readonly movedByQueue?: boolean;
  /** FIFO: its message group (SQS's `MessageGroupId`). */
  readonly groupId?: string;
}
