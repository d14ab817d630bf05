/** What a simulated run is made of: a stream of producer sends, time, operator actions, and per-message faults. */
import type { Delivery, ExecutionFact, ExpiryFact, FifoCopyFact, InvocationFact, LedgerEvent, OrderFact, RedriveFact, SideEffectRun } from "../facts/records";

/** A message attribute the producer sets (SendMessage's MessageAttributes entry), as a pair-like record. */
export interface MessageAttribute {
  readonly name: string;
  /** `String`, `Number` or either with a `.label`. */
  readonly dataType: string;
  readonly value: string;
}

export type Op =
  /**
   * The producer sends this body text (exactly these bytes: field order, number spelling and escapes matter). On a
   * FIFO queue with its `MessageGroupId` and `MessageDeduplicationId` (`null`: none, for content-based
   * deduplication); absent, they are drawn from the scenario's seed (scenario/fifo-sends.ts).
   */
  | { readonly op: "send"; readonly body: string; readonly attributes?: readonly MessageAttribute[]; readonly group?: string; readonly dedup?: string | null }
  /** Let the system run for this long (virtual milliseconds). */
  | { readonly op: "advance"; readonly ms: number }
  /** Once the system is idle, the clock jumps forward (hours to days): TTL, retention and DLQ age move; TTL is swept. */
  | { readonly op: "jump"; readonly ms: number }
  /** The clock jumps forward now, with work in flight (a stalled host): leases and visibility timeouts run out. */
  | { readonly op: "stall"; readonly ms: number }
  /** An operator runs `ops dlq redrive` (the real command code) against the simulated queues. */
  | { readonly op: "redrive" }
  /** An operator runs `ops ledger release` for the key of the n-th sent message (the real command code). */
  | { readonly op: "release"; readonly message: number }
  /**
   * From now the pipe receives nothing for this long (disabled in an incident, its target down) while the next
   * operations run (sends, a redrive): what a poller holds finishes, new messages wait in the source queue and come
   * late, a redriven copy too. A `jump` waits for its end.
   */
  | { readonly op: "outage"; readonly ms: number }
  /**
   * An operator uses SQS's own DLQ redrive (the console's "Start DLQ redrive": `StartMessageMoveTask` from the DLQ
   * back to the source queue), bypassing `ops dlq redrive`. Refused when the DLQ's policy denies it.
   */
  | { readonly op: "native-move" }
  /** An operator purges a queue (`PurgeQueue`). Refused when the queue's policy denies it. */
  | { readonly op: "purge"; readonly queue: "source" | "dlq" }
  /**
   * An operator gives the DLQ a redrive policy (SQS's second move path, ops/redrive-policy-move.ts): to the source queue
   * (`direct`), or to a temporary queue and then a message-move task from it to the source queue (`temporary`).
   * Refused when a RedriveAllowPolicy refuses it.
   */
  | { readonly op: "redrive-policy"; readonly via: "direct" | "temporary" }
  /**
   * The function is deployed again under a new name (a refactor renamed it): the state machine invokes the new one,
   * invocations in flight finish on the old one, the tables keep their data (function/deploys.ts).
   */
  | { readonly op: "rename" }
  /**
   * The function is rolled back to the previous release under its name (function/deploys.ts): from now on it honours
   * only its own second-layer ids, so the second layer forgets every key recorded before; the ledger keeps its data.
   */
  | { readonly op: "rollback" };

export const FaultKind = {
  /** The invocation dies before the handler runs (Runtime.ExitError). */
  FnCrashBefore: "fn-crash-before",
  /** The handler ran (the side effect happened), then the invocation died. */
  FnCrashAfter: "fn-crash-after",
  /** Lambda refuses the invocation (TooManyRequestsException), three times in a row. */
  FnThrottle: "fn-throttle",
  /** The claim write fails with a server error before reaching the table, three times in a row. */
  LedgerFail: "ledger-fail",
  /** The ledger's reads and updates for this message (Inspect, Complete, Release) fail on every attempt. */
  LedgerReadFail: "ledger-read-fail",
  /** The claim write lands but its answer is lost, once per receive: the retried write must recognise its own claim. */
  LedgerLostAnswer: "ledger-lost-answer",
  /**
   * Transient: the first two attempts of every ledger call for this message fail (two of: a throttle, a request
   * limit, a 5xx, an unmodeled error, no answer at all) and the next succeeds. The state machine's Retry must absorb
   * them: no receive lost.
   */
  LedgerBlip: "ledger-blip",
  /** Transient: the first two invocation attempts fail with Lambda service errors (two of five names), the next succeeds. */
  FnBlip: "fn-blip",
  /** The message becomes visible again right after its batch is formed (a stalled worker): a concurrent second delivery. */
  VisibilityExpiry: "visibility-expiry",
  /** The DLQ refuses this message's quarantine sends on every attempt (an SQS outage): it must be retried, not lost. */
  QuarantineFail: "quarantine-fail",
  /**
   * The worker stalls before its Complete or Release (a paused host) until another worker claims the key, at most two
   * visibility timeouts: its late write then meets someone else's claim.
   */
  WorkerPause: "worker-pause",
  /**
   * The invocation hangs until the function's timeout (Sandbox.Timedout), and the worker, stalled, releases only
   * after another worker claimed the key (at most two visibility timeouts): its late release meets someone else's claim.
   */
  FnHang: "fn-hang",
  /** The invocation hangs until the function's timeout (Sandbox.Timedout), before its side effect; its worker goes on. */
  FnTimeout: "fn-timeout",
  /** Transient: the first attempt of this message's quarantine send fails (SQS throttles); the Retry must absorb it. */
  DlqBlip: "dlq-blip",
  /**
   * The Complete write fails on every attempt after the invocation returned (the effect applied): its Catch goes on
   * to Processed, the claim stays IN_PROGRESS until its lease runs out, and the ledger loses the key early while
   * Powertools keeps it (a takeover may then release the claim).
   */
  CompleteFail: "complete-fail",
  /** The side effect returns ~300 KiB of JSON: past Step Functions' 256 KiB payload, within DynamoDB's 400 KB item. */
  ResultOverPayload: "result-300kib",
  /** The side effect returns ~500 KB of JSON: past the payload limit and past what a Powertools record can hold. */
  ResultOverItem: "result-500kb",
} as const;
export type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

/** Faults the pipeline must absorb without costing the message anything (they never excuse a fate). */
export const TRANSIENT_FAULTS: readonly FaultKind[] = [FaultKind.LedgerBlip, FaultKind.FnBlip, FaultKind.LedgerLostAnswer, FaultKind.DlqBlip];

/**
 * Faults the pipeline must absorb whole, never excusing a fate or an extra run: the transient ones, and an oversize
 * result (the handler wrapper bounds it). The simulation records none of them as a hard fault.
 */
export const ABSORBED_FAULTS: readonly FaultKind[] = [...TRANSIENT_FAULTS, FaultKind.ResultOverPayload, FaultKind.ResultOverItem];

/** Hard faults that keep a worker from its own ledger writes for a while (its claim may outlive its delivery). */
export const LEDGER_HOLDING_FAULTS: readonly FaultKind[] = [FaultKind.LedgerReadFail, FaultKind.WorkerPause, FaultKind.FnHang, FaultKind.CompleteFail];

/** A fault that hits the n-th sent message (any copy of it) on the given receive numbers. */
export interface Fault {
  readonly message: number;
  readonly kind: FaultKind;
  readonly receives: readonly number[];
}

export interface Scenario {
  /** Decides delays and interleavings (which poller, batch sizes, the order of concurrent calls). */
  readonly seed: number;
  readonly ops: readonly Op[];
  readonly faults: readonly Fault[];
  /** Concurrent pipe pollers (1-3). */
  readonly pollers: number;
}

/** What the run saw, per message the producer sent (in send order). */
export const Fate = {
  RefusedAtSend: "refused-at-send",
  Acked: "acked",
  Invalid: "quarantined:invalid-message",
  Mismatch: "quarantined:payload-mismatch",
  Rejected: "quarantined:rejected",
  /** A quarantined copy SQS moved back (redrive-policy path) past the source queue's retention of its first send: set aside again. */
  MovedBackTooLate: "quarantined:moved-back-too-late",
  RetriesExhausted: "retries-exhausted",
  Expired: "expired",
  /** The pipe's filter dropped it (deleted unprocessed, as the stack's `filterPatterns` say). */
  Filtered: "filtered",
  /** Its last copy was deleted by an operator's PurgeQueue. */
  Purged: "purged",
  /** FIFO: SQS accepted the send and will never deliver it (its deduplication id repeats one sent within 5 minutes). */
  Deduplicated: "deduplicated",
  Pending: "pending",
} as const;
export type Fate = (typeof Fate)[keyof typeof Fate];

export interface Charge {
  /** Index of the sent message whose (copy's) invocation applied the charge. */
  readonly message: number;
  readonly at: number;
  /** What the effect applied (a drawn domain's generic effect: its payload record in `amount`, domain/effect.ts). */
  readonly amount: unknown;
  readonly currency: unknown;
}

export interface NativeActionFact {
  readonly at: number;
  readonly action: "native-move" | "purge" | "redrive-policy";
  /** Refused by the queue's policy (AccessDenied) or RedriveAllowPolicy: nothing moved or deleted. */
  readonly refused: boolean;
  /** The sent messages (by index) whose copies it moved or deleted. */
  readonly messages: readonly number[];
}

export interface Observation {
  /** Per sent message: its final fate, its send time and whether a fault hit it. */
  readonly messages: readonly { readonly fate: Fate; readonly sentAt: number; readonly faulted: boolean; readonly faults?: readonly FaultKind[] }[];
  readonly charges: readonly Charge[];
  /** Invocations that reached the function's handler, by sent message. */
  readonly handlerRuns: readonly { readonly message: number; readonly at: number }[];
  /** Every delivery of every message to an execution, in order, and every execution. */
  readonly deliveries: readonly Delivery[];
  readonly executions: readonly ExecutionFact[];
  /** The ledger's history as the state machine wrote it, and the function's invocations (facts/audit.ts). */
  readonly ledger: readonly LedgerEvent[];
  readonly invocations: readonly InvocationFact[];
  /** Each run of the side effect, with when its invocation reached the handler. */
  readonly sideEffects?: readonly SideEffectRun[];
  /** What each operator redrive moved, with the facts it acted on and the simulation's own record of them. */
  readonly redrives?: readonly RedriveFact[];
  /** Messages whose last copy aged out of a queue, where and how (see ExpiryFact). */
  readonly expiries?: readonly ExpiryFact[];
  /** SQS's own operator actions (`native-move`, `purge`): refused or not, and which sent messages' copies they took. */
  readonly nativeActions?: readonly NativeActionFact[];
  /** When a deploy rolled the function back (the second layer forgot every key recorded before). */
  readonly rollbacks?: readonly number[];
  /** When the host stalled (the clock jumped with work in flight), and by how much. */
  readonly stalls?: readonly { readonly at: number; readonly ms: number }[];
  /**
   * One invocation per batch: the sent messages whose record ran in a batch invocation that then died or timed out
   * because of another record's fault (function/batch.ts); invoked alone afterwards, they reach the second layer again.
   */
  readonly batchReruns?: readonly number[];
  /**
   * FIFO mode: every copy that was in the source queue with its group and arrival, every charge and settlement in the
   * order it happened (oracle/order.ts), and each send SQS deduplicated with the send it repeated.
   */
  readonly fifo?: {
    readonly copies: readonly FifoCopyFact[];
    readonly order: readonly OrderFact[];
    readonly deduplicated: readonly { readonly message: number; readonly of?: number }[];
    readonly maxReceiveCount: number;
  };
  /** One line per event of the run; equal for equal scenarios, byte for byte. */
  readonly trace: readonly string[];
  /** Virtual time at the end of the run. */
  readonly endedAt: number;
  readonly stats: {
    readonly executions: number;
    readonly dynamoCalls: number;
    readonly invocations: number;
    readonly virtualMs: number;
    /** Timers the virtual clock fired: the run's work in time, which a clock jump must not multiply. */
    readonly timersFired: number;
    /** State machine transitions taken, `From→To` (see fuzz/coverage.ts). */
    readonly transitions: readonly string[];
  };
}
