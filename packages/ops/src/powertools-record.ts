import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { legacySecondLayerIds, SECOND_LAYER_IDS, secondLayerRecordId, type SecondLayerIds } from "@effectively-once/contract";
import { awsCall } from "./aws-errors";
import { hasOutput, requireOutput } from "./outputs";
import { type OpsContext } from "./types";
import { OutputName } from "@effectively-once/contract";

/** The function's Powertools idempotency record for the key (`expiration` in s, `inProgressExpiration` in ms, as stored). */
export interface PowertoolsRecord {
  readonly status: string;
  readonly expiration?: number;
  readonly inProgressExpiration?: number;
  readonly validation?: string;
  readonly data?: unknown;
  /** The record's id. */
  readonly id: string;
  /** True for a record of the earlier releases' ids (`<function name>#<md5>`), honoured during the upgrade's transition. */
  readonly legacy: boolean;
}

/** Powertools' status of a record whose invocation finished: the function answers copies from it until `expiration`. */
export const POWERTOOLS_COMPLETED = "COMPLETED";

/**
 * The id forms the deployed function answers from, its own first: the ones the stack's outputs name (the very
 * variables the function gets), plus the earlier releases' while the upgrade's transition lasts. A stack deployed
 * by release 0.2 or earlier has no such outputs: its function named its records after itself (`function_name`);
 * the contract's form is read too, in case the outputs file predates the deploy (one more witness never hurts).
 */
function powertoolsIdForms(ctx: Pick<OpsContext, "outputs" | "targetLabel">): { readonly ids: SecondLayerIds; readonly legacy: boolean }[] {
  if (!hasOutput(ctx, OutputName.IdempotencyKeyPrefix)) {
    return [
      { ids: legacySecondLayerIds(requireOutput(ctx, OutputName.FunctionName)), legacy: true },
      { ids: SECOND_LAYER_IDS, legacy: false },
    ];
  }
  const own = { keyPrefix: requireOutput(ctx, OutputName.IdempotencyKeyPrefix), hashFunction: requireOutput(ctx, OutputName.IdempotencyHashFunction) };
  const earlier = hasOutput(ctx, OutputName.IdempotencyLegacyKeyPrefix) ? [{ ids: legacySecondLayerIds(requireOutput(ctx, OutputName.IdempotencyLegacyKeyPrefix)), legacy: true }] : [];
  return [{ ids: own, legacy: false }, ...earlier];
}

/** Whether the stack's outputs say where the key's Powertools record is. */
export function hasPowertoolsAddress(ctx: Pick<OpsContext, "outputs">): boolean {
  return hasOutput(ctx, OutputName.IdempotencyTable) && (hasOutput(ctx, OutputName.IdempotencyKeyPrefix) || hasOutput(ctx, OutputName.FunctionName));
}

/** The table and id of the key's Powertools record, in the form the function writes now. */
export function powertoolsRecordAddress(ctx: OpsContext, key: string, operation: string): { readonly table: string; readonly id: string } {
  return { table: requireOutput(ctx, OutputName.IdempotencyTable), id: secondLayerRecordId(powertoolsIdForms(ctx)[0].ids, key, operation) };
}

/** Every Powertools record of the key the function answers from (consistent reads), in the order of `powertoolsIdForms`. */
export async function getPowertoolsRecords(ctx: OpsContext, key: string, operation: string): Promise<PowertoolsRecord[]> {
  const table = requireOutput(ctx, OutputName.IdempotencyTable);
  const read = async ({ ids, legacy }: ReturnType<typeof powertoolsIdForms>[number]): Promise<PowertoolsRecord | undefined> => {
    const id = secondLayerRecordId(ids, key, operation);
    const { Item } = await awsCall("reading the Powertools record", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the idempotency table ${table}` }, () =>
      ctx.dynamodb.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true })),
    );
    return Item ? toPowertoolsRecord(Item, id, legacy) : undefined;
  };
  const found = await Promise.all(powertoolsIdForms(ctx).map(read));
  return found.filter((record): record is PowertoolsRecord => record !== undefined);
}

/** The key's Powertools record: the one of the function's own ids, else one of the earlier releases'; undefined when there is none. */
export async function getPowertoolsRecord(ctx: OpsContext, key: string, operation: string): Promise<PowertoolsRecord | undefined> {
  return (await getPowertoolsRecords(ctx, key, operation))[0];
}

function toPowertoolsRecord(item: Record<string, unknown>, id: string, legacy: boolean): PowertoolsRecord {
  return {
    status: String(item.status),
    ...(typeof item.expiration === "number" ? { expiration: item.expiration } : {}),
    ...(typeof item.in_progress_expiration === "number" ? { inProgressExpiration: item.in_progress_expiration } : {}),
    ...(typeof item.validation === "string" ? { validation: item.validation } : {}),
    ...(item.data !== undefined ? { data: item.data } : {}),
    id,
    legacy,
  };
}
