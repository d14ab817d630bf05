import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { TargetKind } from "./settings";
import type { StackNames } from "./stack-names";

/** What a scenario may need beyond the AWS SDK; a target that lacks one leaves the scenario out. */
export const Capability = {
  /** Seeded fault injection (Lambda, DynamoDB, early visibility expiry), set up when the target starts. */
  Faults: "faults",
  /** The pipe's per-message delivery log: when each message was received, retried or acknowledged. */
  Deliveries: "deliveries",
  /** A TTL sweep on demand, and a wall clock the suite can move forward (days pass without waiting). */
  Clock: "clock",
} as const;
export type Capability = (typeof Capability)[keyof typeof Capability];

/** One receipt of one message by the pipe, and what the pipe did with it. */
export interface Delivery {
  readonly batchId: string;
  readonly messageId: string;
  readonly receivedAt: number;
  /** Message ids of the whole batch. */
  readonly batch: readonly string[];
  /** Deleted from the queue (`acknowledged`) or left for another delivery (`retry`); unset while in flight. */
  result?: "acknowledged" | "retry";
  retryReason?: string;
  completedAt?: number;
}

export interface DeliveryLog {
  /** Every receipt of the message, oldest first. */
  of(messageId: string): readonly Delivery[];
}

export interface FaultControl {
  /** Faults injected so far, by kind ("lambda.crash.after", "dynamodb.error", "sqs.visibility-expired-early", ...). */
  injected(): Record<string, number>;
}

export interface RetentionControl {
  /** The stack's retention window (ledger TTL, Powertools expiry, downstream item expiry). */
  readonly retentionSeconds: number;
  /** The source queue's message retention. */
  readonly messageRetentionSeconds: number;
  /** Runs the TTL sweeper once now; resolves with the number of items it deleted, per table. */
  sweep(): Promise<Record<string, number>>;
  /**
   * Moves the wall clock of every part of the target forward (the local cloud's shared clock): also `Date.now()`
   * in this process, so the suite's own reads and the operator tools see the same time. Call it while idle.
   */
  advance(seconds: number): void;
}

/**
 * Where the suite publishes and what it may observe. Everything a scenario asserts comes through `clients`
 * (the AWS SDK against the queue, the DLQ and the tables); the optional controls exist only where the target
 * can offer them (the local cloud), and scenarios that need one are left out elsewhere.
 */
export interface E2eTarget {
  readonly kind: TargetKind;
  readonly names: StackNames;
  readonly clients: {
    readonly sqs: SQSClient;
    readonly dynamodb: DynamoDBClient;
    readonly documents: DynamoDBDocumentClient;
  };
  /** Default deadline for a scenario's messages to settle. */
  readonly settleTimeoutMs: number;
  /** Pause between two observations while waiting. */
  readonly pollIntervalMs: number;
  /** Long-poll wait of the suite's own receives (the DLQ). */
  readonly receiveWaitSeconds: number;
  /** Resolves once the source queue holds no message (visible, in flight or delayed); rejects after `timeoutMs`. */
  quiesce(timeoutMs: number): Promise<void>;
  readonly faults?: FaultControl;
  readonly deliveries?: DeliveryLog;
  readonly retention?: RetentionControl;
  /** A short account of the target's state, added to timeout errors (e.g. failed executions). */
  diagnostics(): string;
  /** Stops what the target started and destroys its clients. */
  close(): Promise<void>;
}

/** The capabilities a target offers. */
export function capabilitiesOf(kind: TargetKind): readonly Capability[] {
  return kind === "local" ? Object.values(Capability) : [];
}
