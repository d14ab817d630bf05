/**
 * What the deterministic simulation (`npm run sim:search`) runs in process: the stack's domain and the function's
 * handler options. `stack.ts` re-exports it (the app contract); it lives here, without cdktf or the construct, so the
 * simulation reads it without loading the stack.
 */
import { PAYMENTS_DOMAIN } from "./identity";

export const simulation = { domain: PAYMENTS_DOMAIN, handlerOptions: async () => (await import("./functions/charge")).chargeFunction };
