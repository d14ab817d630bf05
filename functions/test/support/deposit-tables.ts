import { effectKey } from "@effectively-once/contract";
import type { Dynalite } from "@effectively-once/testing";
import { idempotencyRecordId } from "../../src/idempotency";
import { readEffects, readIdempotencyRecords } from "./effects";
import { depositInstance } from "./instance";
import { startDepositDynalite } from "./tables";

/**
 * A suite's dynalite with the deposit function's two tables, and the function instances it builds on them, set up
 * and torn down by the suite's own hooks (call it inside `describe`). `db()` is the running dynalite.
 */
export function depositTables(tables: { idempotency: string; effects: string }) {
  let db: Dynalite | undefined;
  const instances: Array<ReturnType<typeof depositInstance>> = [];
  const running = (): Dynalite => {
    if (!db) throw new Error("depositTables: dynalite is not running (use it inside the suite's tests)");
    return db;
  };

  beforeAll(async () => {
    db = await startDepositDynalite(tables);
  });

  afterAll(async () => {
    for (const instance of instances) instance.destroy();
    await db?.stop();
  });

  return {
    db: running,
    /** A new instance ("container") of the function on these tables, destroyed after the suite. */
    newInstance: () => {
      const instance = depositInstance(running().endpoint, tables);
      instances.push(instance);
      return instance;
    },
    /** The effects journalled for a key's deposit. */
    effectsOf: (businessKey: string) => readEffects(running().client, tables.effects, effectKey(businessKey, "deposit")),
    /** The key's second-layer (Powertools) record, if any. */
    recordOf: async (businessKey: string) => {
      const id = idempotencyRecordId(businessKey, "deposit");
      return (await readIdempotencyRecords(running().client, tables.idempotency)).find((record) => record.id === id);
    },
  };
}
