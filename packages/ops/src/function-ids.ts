/**
 * Which of the function's Powertools records count as a key's memory: only those the DEPLOYED function honours, read
 * from its configuration (Lambda's GetFunctionConfiguration: `IDEMPOTENCY_KEY_PREFIX`, `IDEMPOTENCY_HASH_FUNCTION`,
 * `IDEMPOTENCY_LEGACY_KEY_PREFIX`), never from the stack's outputs, which may predate the last deploy (a rollback to
 * release 0.2 leaves outputs that name ids its function never reads). A record the function would not read is no
 * witness: a copy redriven on its word would be applied again once the ledger lost the key. When ops cannot tell (no
 * permission, no such function, a configuration without the variables), it counts none and says so.
 */
import { ContractEnv, legacySecondLayerIds, OutputName, SECOND_LAYER_HASH_FUNCTIONS, type SecondLayerIds } from "@effectively-once/contract";
import { hasOutput } from "./outputs";
import type { OpsContext } from "./types";

/** One id form the function answers from; `legacy` for release 0.2's `<function name>#<MD5>`. */
export interface IdForm {
  readonly ids: SecondLayerIds;
  readonly legacy: boolean;
}

/** The forms the deployed function honours (its own first), and why ops counts fewer when it does. */
export interface HonouredIds {
  /** Empty when ops cannot tell: then no Powertools record counts as a key's memory. */
  readonly forms: readonly IdForm[];
  /** Why the count is smaller than the outputs suggest (for the operator's notices); absent when the configuration named every form. */
  readonly notice?: string;
}

const read = new WeakMap<object, Promise<HonouredIds>>();

/** The id forms of the deployed function, read once per command (one GetFunctionConfiguration). */
export function honouredIds(ctx: Pick<OpsContext, "outputs" | "functionConfiguration">): Promise<HonouredIds> {
  let found = read.get(ctx);
  if (!found) read.set(ctx, (found = readHonouredIds(ctx)));
  return found;
}

const countsNone = "so no idempotency record counts as a key's memory (the ledger and the age rules still apply)";

async function readHonouredIds(ctx: Pick<OpsContext, "outputs" | "functionConfiguration">): Promise<HonouredIds> {
  if (!hasOutput(ctx, OutputName.FunctionName)) return { forms: [], notice: `the stack has no ${OutputName.FunctionName} output: ops cannot tell which function answers, ${countsNone}` };
  const name = ctx.outputs[OutputName.FunctionName] as string;
  if (!ctx.functionConfiguration) return { forms: [], notice: `ops cannot read the configuration of the function ${name} here, ${countsNone}` };
  let configuration: Awaited<ReturnType<NonNullable<OpsContext["functionConfiguration"]>>>;
  try {
    configuration = await ctx.functionConfiguration(name);
  } catch (error) {
    const err = error as { name?: string; message?: string };
    return {
      forms: [],
      notice:
        `lambda:GetFunctionConfiguration on ${name} failed (${err.name ?? "Error"}: ${(err.message ?? "").split("\n")[0]}): ops cannot tell which idempotency records the deployed function honours, ` +
        `${countsNone}; grant the operator lambda:GetFunctionConfiguration on the function (docs/operations.md)`,
    };
  }
  const variables = configuration.variables ?? {};
  const deployedName = configuration.functionName ?? name;
  const prefix = variables[ContractEnv.IdempotencyKeyPrefix];
  const hash = variables[ContractEnv.IdempotencyHashFunction];
  if (prefix && hash && SECOND_LAYER_HASH_FUNCTIONS.includes(hash)) {
    const legacy = variables[ContractEnv.IdempotencyLegacyKeyPrefix];
    return { forms: [{ ids: { keyPrefix: prefix, hashFunction: hash }, legacy: false }, ...(legacy ? [{ ids: legacySecondLayerIds(legacy), legacy: true }] : [])] };
  }
  if (prefix === undefined && hash === undefined && variables[ContractEnv.IdempotencyTableName] !== undefined) {
    // The handler wrapper of release 0.2 and before: Powertools' defaults, the function's own name and MD5.
    return {
      forms: [{ ids: legacySecondLayerIds(deployedName), legacy: true }],
      notice:
        `the function ${deployedName} sets no ${ContractEnv.IdempotencyKeyPrefix}: it runs a release before these ids (0.2, e.g. after a rollback), which honours only its ` +
        `own <function name>#<MD5> records, so only those count as a key's memory (not the ${OutputName.IdempotencyKeyPrefix} output's)`,
    };
  }
  const shown = [ContractEnv.IdempotencyKeyPrefix, ContractEnv.IdempotencyHashFunction].map((v) => `${v}=${variables[v] === undefined ? "(unset)" : JSON.stringify(variables[v])}`).join(", ");
  return { forms: [], notice: `the function ${deployedName}'s configuration does not say which ids it honours (${shown}), ${countsNone}` };
}
