/** What the audit records of a run (facts/audit.ts) and an observation carries (scenario/shape.ts): plain data, a leaf. */

/** One delivery of a sent message (any copy of it) to an execution. */
export interface Delivery {
  readonly message: number;
  /** The SQS message id of the copy delivered (a redrive makes a new copy). */
  readonly copy: string;
  /** The copy's receive count on this delivery (a redriven copy starts again at 1). */
  readonly receive: number;
  /** A hard fault hit this copy on this receive. */
  readonly hardFault: boolean;
  /** One that keeps its worker from its ledger writes (LEDGER_HOLDING_FAULTS). */
  readonly holdsLedger: boolean;
  /** When its execution started and ended. */
  readonly startedAt: number;
  readonly at: number;
  /** The execution did not settle it: failed, timed out, or listed it in batchItemFailures. */
  readonly retried: boolean;
  /** Its execution ran out of time: the whole batch comes back, as documented. */
  readonly timedOut: boolean;
  /** A hard fault hit one of its execution's records (a paused worker, retries of a failing call). */
  readonly batchFaulted: boolean;
  /** FIFO: its message group. */
  readonly group?: string;
  /** FIFO: handed back with an earlier record of its group the execution also handed back (that record's copy id). */
  readonly heldBehind?: string;
  /** The DLQ refused its quarantine on every attempt (a hard fault on this receive). */
  readonly quarantineRefused?: boolean;
}

/**
 * FIFO mode: what the ordering rule reads, in the order it happened (`seq`, one counter for the run). A `charge` is a
 * copy's invocation applying its key; a copy is `settled` when its execution decided it (processed, a duplicate,
 * quarantined) or it left the source queue otherwise (moved to the DLQ by SQS, dropped by the pipe's filter, purged,
 * expired).
 */
export interface OrderFact {
  readonly seq: number;
  readonly kind: "charge" | "settled";
  /** The SQS message id of the source-queue copy. */
  readonly copy: string;
  readonly how?: string;
}

/** FIFO mode: a copy that was in the source queue, its group, and its place in it (arrival order). */
export interface FifoCopyFact {
  readonly id: string;
  /** The sent message it descends from (undefined: none the simulation knows). */
  readonly message?: number;
  readonly group: string;
  readonly arrival: number;
}

/** A write to the ledger by the state machine that landed. */
export interface LedgerEvent {
  readonly kind: "claim" | "complete" | "release";
  readonly key: string;
  /** For a claim, the claim written; for a completion or release, the claim the item held when it landed. */
  readonly claimId: string | undefined;
  readonly at: number;
}

export interface InvocationFact {
  readonly key: string | undefined;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The function returned a result (no function error, no service error). */
  readonly ok: boolean;
  /** When the caller gave up waiting (the Task's timeout), if it did before the answer. */
  readonly abandonedAt?: number;
}

/** One run of the side effect: the second layer let the invocation through to it (function/downstream.ts). */
export interface SideEffectRun {
  /** The business key of the invocation's event. */
  readonly key: string | undefined;
  /** The sent message the invoked copy descends from. */
  readonly message: number;
  /** When the invocation reached the handler (before the second layer looked the key up). */
  readonly runStartedAt: number;
  readonly at: number;
}

/** One execution the pipe ran. */
export interface ExecutionFact {
  readonly status: string;
  readonly at: number;
  /** A hard fault hit one of its records. */
  readonly faulted: boolean;
  /** SUCCEEDED with the documented answer: exactly `{batchItemFailures: [{itemIdentifier}...]}`. */
  readonly answered: boolean;
}

/**
 * One DLQ message an operator's redrive moved: what the tool read from it, and what the simulation knows of it from
 * its own records (which principal sent it, the copy it descends from), never from its attributes.
 */
export interface RedriveFact {
  readonly at: number;
  /** The sent message the moved DLQ message descends from. */
  readonly message: number;
  /** The reason the pipeline gave it: the state machine's quarantine reason, or retries-exhausted (the queue moved it). */
  readonly givenReason: string;
  /** What the tool acted on. */
  readonly reason: string;
  readonly firstSentAt?: number;
  readonly businessKey?: string;
  /** The sent message its `originalMessageId` names (undefined: none the simulation knows). */
  readonly named?: number;
}

/** A sent message whose last copy aged out of a queue: its retention ran out there (sqs/service.ts, run.ts). */
export interface ExpiryFact {
  readonly message: number;
  /** The source queue, or the DLQ: a copy the redrive policy moved there (`moved`, its first send kept) or a quarantine's own. */
  readonly queue: "source" | "dlq";
  readonly moved: boolean;
  /** When its retention ran out. */
  readonly at: number;
  /** How long it waited visible and unreceived in that queue (a stalled or busy pipe). */
  readonly waitedMs: number;
  /** When the redrive policy moved it to the DLQ. */
  readonly deadLetteredAt?: number;
}
