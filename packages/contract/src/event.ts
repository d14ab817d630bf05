/**
 * The event the state machine's Invoke step hands the downstream function (its `Payload`), and what the handler
 * wrapper validates. `test/contract/definition-agrees.test.ts` proves the definition sends exactly these fields.
 */
export interface InvocationEvent<Payload = Record<string, unknown>> {
  /** Canonical JSON of the key parts, e.g. `["t1","o-42"]`: the ledger's `pk`. */
  readonly businessKey: string;
  /** The ledger's `sk`: the intent, e.g. `charge`. */
  readonly operation: string;
  /** The SQS message id of this delivery (for logs; never part of an identity). */
  readonly messageId: string;
  /** SQS's ApproximateReceiveCount of this delivery. */
  readonly receiveCount?: number;
  /** Epoch milliseconds of the message's first send (kept across quarantine and redrive): the start of send-to-effect. */
  readonly firstSentAt?: number;
  /** The parsed message body. */
  readonly payload: Payload;
}

export const INVOCATION_EVENT_FIELDS = ["businessKey", "operation", "messageId", "receiveCount", "firstSentAt", "payload"] as const satisfies readonly (keyof InvocationEvent)[];
