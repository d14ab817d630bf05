import { unitPrice, type PriceBook, type PriceId } from "./prices";

export const Service = {
  Sqs: "SQS",
  Pipes: "EventBridge Pipes",
  StepFunctions: "Step Functions",
  DynamoDB: "DynamoDB",
  Lambda: "Lambda",
  Logs: "CloudWatch Logs",
  XRay: "X-Ray",
} as const;
export type Service = (typeof Service)[keyof typeof Service];

/** Units a quantity is counted in: the base unit of its price (requests, GB-seconds, bytes, GB-months, traces). */
export const Quantity = {
  Requests: "requests",
  Units: "units",
  GbSeconds: "GB-s",
  Bytes: "bytes",
  GbMonths: "GB-month",
  Traces: "traces",
  Transitions: "transitions",
} as const;
export type Quantity = (typeof Quantity)[keyof typeof Quantity];

/**
 * Who a line is for. The pipeline's own cost (queue, pipe, workflow, ledger, Powertools layer, logs, tracing) is what
 * choosing this design costs; the side effect (here the effects table and the function's own work) is the user's
 * business and costs the same in either design.
 */
export const Owner = { Pipeline: "pipeline", SideEffect: "side effect" } as const;
export type Owner = (typeof Owner)[keyof typeof Owner];

/** One priced line: quantity × the unit price of `priceId` = usd. `detail` says how the quantity was counted. */
export interface CostLine {
  readonly service: Service;
  readonly item: string;
  readonly quantity: number;
  readonly quantityUnit: Quantity;
  readonly priceId: PriceId;
  readonly unitPriceUsd: number;
  readonly usd: number;
  readonly detail: string;
  readonly owner: Owner;
}

export function line(book: PriceBook, service: Service, item: string, priceId: PriceId, quantity: number, quantityUnit: Quantity, detail: string, owner: Owner = Owner.Pipeline): CostLine {
  const price = unitPrice(book, priceId);
  return { service, item, quantity, quantityUnit, priceId, unitPriceUsd: price, usd: quantity * price, detail, owner };
}

export function sumUsd(lines: readonly CostLine[], owner?: Owner): number {
  return lines.reduce((sum, l) => (owner === undefined || l.owner === owner ? sum + l.usd : sum), 0);
}

/** An SQS request's price: a FIFO queue's requests are priced apart (prices file, `sqs.fifo.request`). */
export function sqsPrice(config: { readonly fifo?: boolean }): PriceId {
  return config.fifo ? "sqs.fifo.request" : "sqs.request";
}

/** SQS, Pipes and EventBridge bill each started 64 KB of payload as one request. */
const CHUNK_BYTES = 64 * 1024;
export function chunks(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / CHUNK_BYTES));
}
