import { randomUUID } from "node:crypto";
import {
  EffectJournal,
  effectKey,
  type PipelineEvent,
  type PipelineHandlerOptions,
  type SideEffectContext,
  ValidationError,
} from "@effectively-once/pipeline/handler";
import { MAX_LINES } from "../identity";

/** One invoice line; `unitPrice` in minor units (cents). */
export interface InvoiceLine {
  readonly sku: string;
  readonly quantity: number;
  readonly unitPrice: number;
}

/** The parsed SQS body; the field rules guarantee the strings, `issue` checks the lines. */
export interface InvoicePayload {
  readonly customerId: string;
  readonly invoiceNumber: string;
  readonly lines: readonly InvoiceLine[];
  readonly currency: string;
  /** `YYYY-MM-DD`. */
  readonly dueDate: string;
  readonly [field: string]: unknown;
}

/** The function's result; Powertools stores it and returns it for duplicates. */
export interface IssuedInvoice {
  readonly invoiceId: string;
  /** `applied` by the first run, or `replayed` when the billing system had issued it already. */
  readonly outcome: string;
  /** Sum of quantity × unitPrice, minor units. */
  readonly total: number;
  readonly currency: string;
  readonly dueDate: string;
}

const wholeAtLeast = (value: unknown, minimum: number) => Number.isSafeInteger(value) && (value as number) >= minimum;

/** Throws `ValidationError` (permanent: quarantined `rejected`) naming the first bad line field. */
function checkLines(lines: unknown): asserts lines is readonly InvoiceLine[] {
  if (!Array.isArray(lines) || lines.length === 0 || lines.length > MAX_LINES) {
    throw new ValidationError("payload.lines", `payload.lines: expected 1 to ${MAX_LINES} lines of { sku, quantity, unitPrice }`);
  }
  lines.forEach((line: Record<string, unknown>, index) => {
    const at = `payload.lines[${index}]`;
    if (typeof line?.sku !== "string" || line.sku === "") throw new ValidationError(`${at}.sku`, `${at}.sku: expected a non-empty string`);
    if (!wholeAtLeast(line.quantity, 1)) throw new ValidationError(`${at}.quantity`, `${at}.quantity: expected a whole number >= 1`);
    if (!wholeAtLeast(line.unitPrice, 0)) throw new ValidationError(`${at}.unitPrice`, `${at}.unitPrice: expected a whole number of minor units >= 0`);
  });
}

/**
 * The side effect: issue the invoice in the stand-in billing system once per `[customerId, invoiceNumber]#issue`.
 * The fingerprint is the canonical payload hash, so the same lines, currency and due date again get the stored
 * invoice back, and any change is a `DownstreamConflictError` (`payload-mismatch`). A due date before today (UTC)
 * is refused for good (`rejected`).
 */
async function issue(event: PipelineEvent<InvoicePayload>, context: SideEffectContext<EffectJournal>): Promise<IssuedInvoice> {
  const { lines, currency, dueDate } = event.payload;
  checkLines(lines);
  const parsed = new Date(`${dueDate}T00:00:00Z`);
  // Round trip: Date would read 2099-02-30 as March 2nd.
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== dueDate) {
    throw new ValidationError("payload.dueDate", `payload.dueDate: ${dueDate} is not a calendar date (YYYY-MM-DD)`);
  }
  const key = effectKey(event.businessKey, event.operation);
  const today = new Date(Date.now()).toISOString().slice(0, 10);
  if (dueDate < today) {
    await context.resources.refuse({ effectKey: key, messageId: event.messageId }, `billing refuses invoices due in the past: dueDate ${dueDate} is before ${today}`);
  }
  const total = lines.reduce((sum, line) => sum + line.quantity * line.unitPrice, 0);
  const receipt = await context.resources.apply({
    effectKey: key,
    messageId: event.messageId,
    fingerprint: event.payloadHash,
    attributes: { invoiceId: `inv_${randomUUID()}`, total, currency, dueDate, lineCount: lines.length },
  });
  const { invoiceId } = receipt.attributes;
  context.note({ outcome: receipt.outcome, invoiceId });
  return { invoiceId, outcome: receipt.outcome, total: receipt.attributes.total, currency: receipt.attributes.currency, dueDate: receipt.attributes.dueDate };
}

/** What `handler.ts` deploys: the invoice on an effect journal. */
export const issueFunction: PipelineHandlerOptions<InvoicePayload, IssuedInvoice, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  sideEffect: issue,
};
