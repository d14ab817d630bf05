/**
 * The wrapper tests' own tiny domain, not an example: deposits keyed by `[accountId, ref]`, payload `amount`, applied
 * through an effect journal. Amount 13 is refused by a subclass of PermanentError with a name of its own, 402 by a
 * plain error named `DeclinedError` (a refusal a stack lists in `function.permanentErrors`), 1,000,000 and more by
 * the journal's refusal.
 */
import { randomUUID } from "node:crypto";
import { effectKey } from "@effectively-once/contract";
import { effectiveRules } from "@effectively-once/contract";
import { encodeFieldRules, encodePayloadFields, secondLayerEnvironment } from "@effectively-once/contract";
import { EffectJournal, type PipelineEvent, type PipelineHandlerOptions, PermanentError } from "../../src";

export const DEPOSIT_RULES = effectiveRules(["accountId", "ref"], ["amount"], {
  accountId: { type: "string", maxLength: 64 },
  ref: { type: "string", maxLength: 64 },
  amount: { type: "integer", minimum: 1 },
});

export const FUNCTION_NAME = "deposit-test";

export interface Deposit {
  readonly accountId: string;
  readonly ref: string;
  readonly amount: number;
  readonly [field: string]: unknown;
}

export interface DepositResult {
  readonly depositId: string;
  readonly outcome: string;
  readonly amount: number;
}

/** A permanent error with a name of its own: the wrapper reports it as `PipelineRejected`, like any PermanentError. */
export class UnluckyAmountError extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = "UnluckyAmountError";
  }
}

export const depositFunction: PipelineHandlerOptions<Deposit, DepositResult, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  async sideEffect(event, { resources: journal, note }) {
    const key = effectKey(event.businessKey, event.operation);
    if (event.payload.amount === 13) throw new UnluckyAmountError("13 is refused");
    // Not a PermanentError: a refusal only for a stack that names it (PIPELINE_REJECTION_ERRORS), else a failure.
    if (event.payload.amount === 402) throw Object.assign(new Error("declined by the bank"), { name: "DeclinedError" });
    // A transient failure (any error that is not a PermanentError or ConflictError): the record is retried.
    if (event.payload.amount === 503) throw new Error("the downstream answered 503");
    if (event.payload.amount >= 1_000_000) await journal.refuse({ effectKey: key, messageId: event.messageId }, "above the deposit limit");
    const receipt = await journal.apply({
      effectKey: key,
      messageId: event.messageId,
      fingerprint: event.payloadHash,
      attributes: { depositId: `dep_${randomUUID()}`, amount: event.payload.amount },
    });
    note({ outcome: receipt.outcome, depositId: receipt.attributes.depositId });
    return { depositId: receipt.attributes.depositId, outcome: receipt.outcome, amount: receipt.attributes.amount };
  },
};

/** The environment the construct gives the function, pointed at a local DynamoDB. */
export function depositEnv(endpoint: string, tables: { idempotency: string; effects: string }) {
  return {
    IDEMPOTENCY_TABLE_NAME: tables.idempotency,
    EFFECTS_TABLE_NAME: tables.effects,
    IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "3600",
    PAYLOAD_FIELDS: encodePayloadFields(["amount"]),
    PIPELINE_FIELD_RULES: encodeFieldRules(DEPOSIT_RULES),
    POWERTOOLS_SERVICE_NAME: "deposits",
    POWERTOOLS_LOG_LEVEL: "SILENT",
    ...secondLayerEnvironment(),
    AWS_LAMBDA_FUNCTION_NAME: FUNCTION_NAME,
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    // Keeps the SDK's Node 20 notice off stderr, where the logging tests read log lines.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  } satisfies Record<string, string>;
}

/** A valid event with a business key no other test uses. */
export function depositEvent(overrides: Partial<Omit<PipelineEvent<Deposit>, "payloadHash">> = {}) {
  const accountId = "acc-1";
  const ref = `r-${randomUUID().slice(0, 8)}`;
  return {
    businessKey: JSON.stringify([accountId, ref]),
    operation: "deposit",
    messageId: randomUUID(),
    receiveCount: 1,
    payload: { accountId, ref, amount: 1250 } as Deposit,
    ...overrides,
  };
}

/** The same business key and operation, delivered again as another SQS message. */
export function redelivery(event: ReturnType<typeof depositEvent>, payload: Partial<Deposit> = {}) {
  return { ...event, messageId: randomUUID(), receiveCount: 2, payload: { ...event.payload, ...payload } };
}
