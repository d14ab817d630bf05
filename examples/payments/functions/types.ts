/** What the downstream did with one call. */
export const ChargeOutcome = {
  /** This call created the charge. */
  APPLIED: "applied",
  /** The charge already existed with the same amount and currency; the stored charge is returned. */
  REPLAYED: "replayed",
} as const;
export type ChargeOutcome = (typeof ChargeOutcome)[keyof typeof ChargeOutcome];

/** Outcomes recorded on CALL items: every call is counted, including the ones that conflict. */
export const CallOutcome = { ...ChargeOutcome, CONFLICT: "conflict", REFUSED: "refused" } as const;
export type CallOutcome = (typeof CallOutcome)[keyof typeof CallOutcome];

/** The parsed SQS message body. Other fields are allowed and passed through untouched. */
export interface PaymentPayload {
  readonly tenantId: string;
  readonly orderId: string;
  /** Minor units (cents), a positive integer. */
  readonly amount: number;
  /** ISO 4217 code, three upper-case letters. */
  readonly currency: string;
  readonly [field: string]: unknown;
}

/** The event the state machine passes to `lambda:invoke`. */
export interface PaymentEvent {
  readonly businessKey: string;
  readonly operation: string;
  readonly messageId: string;
  readonly receiveCount?: number;
  readonly payload: PaymentPayload;
}

/** The function's result; Powertools stores it and returns it for duplicates. */
export interface PaymentResult {
  readonly businessKey: string;
  readonly operation: string;
  readonly chargeId: string;
  readonly outcome: ChargeOutcome;
  readonly amount: number;
  readonly currency: string;
}
