/** The simulated stack's tables (world/world.ts creates them fresh per run): the ledger, Powertools' records, the effects. */
import { SIM_NAMES } from "../settings";

const TABLES = [
  { TableName: SIM_NAMES.ledger, keys: ["pk", "sk"] },
  { TableName: SIM_NAMES.idempotency, keys: ["id"] },
  { TableName: SIM_NAMES.effects, keys: ["pk", "sk"] },
];

/** CreateTable inputs, string keys only (hash, then range). */
export function simTableInputs() {
  return TABLES.map((t) => ({
    TableName: t.TableName,
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: t.keys.map((k) => ({ AttributeName: k, AttributeType: "S" })),
    KeySchema: t.keys.map((k, i) => ({ AttributeName: k, KeyType: i === 0 ? "HASH" : "RANGE" })),
  }));
}
