import type { PipelineHandler } from "../../src";
import type { DepositResult } from "./deposit";

/**
 * Loads a fresh copy of the tiny handler module (its own cold start) with `env` applied to process.env first. The
 * variables stay set, since the SDK resolves the endpoint override per request. `restore` puts the previous values back.
 */
export function loadHandler(env: Record<string, string | undefined>): { handler: PipelineHandler<DepositResult>; restore: () => void } {
  const previous = applyEnv(env);
  let handler: PipelineHandler<DepositResult> | undefined;
  try {
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- jest.isolateModules loads synchronously: a fresh module reads this test's environment
      handler = (require("./deposit-handler") as { handler: PipelineHandler<DepositResult> }).handler;
    });
  } catch (error) {
    applyEnv(previous);
    throw error;
  }
  return { handler: handler as PipelineHandler<DepositResult>, restore: () => applyEnv(previous) };
}

/** Sets (or, for `undefined`, deletes) each variable of `env` in process.env; returns the values it replaced. */
export function applyEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const previous: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    previous[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return previous;
}
