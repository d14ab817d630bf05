// The deployed function: the package's handler wrapper around the team's side effect, a stock move posted to the
// warehouse's HTTP API with the effect key as its Idempotency-Key. A move the warehouse refuses (stock would go below
// zero) is quarantined as `rejected`: in a group applied out of order, a withdrawal would meet too little stock.
import { createPipelineHandler, effectKey, PermanentError } from "@effectively-once/pipeline/handler";

interface StockMove {
  readonly sku: string;
  readonly moveId: string;
  readonly quantity: number;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<StockMove, { stock: number }, string>({
  setup: () => {
    const url = process.env.WAREHOUSE_URL;
    if (!url) throw new Error("WAREHOUSE_URL is not set: the stack passes the warehouse API's address");
    return url;
  },
  sideEffect: async (event, { resources: warehouseUrl }) => {
    const response = await fetch(`${warehouseUrl}/moves`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": effectKey(event.businessKey, event.operation) },
      body: JSON.stringify({ messageId: event.messageId, sku: event.payload.sku, quantity: event.payload.quantity }),
    });
    if (response.status === 409) throw new PermanentError(`the warehouse refused the move: ${await response.text()}`);
    if (!response.ok) throw new Error(`warehouse answered ${response.status}`); // transient: retried, its group waits
    return (await response.json()) as { stock: number };
  },
});
