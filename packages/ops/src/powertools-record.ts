import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { legacySecondLayerIds, SECOND_LAYER_IDS, secondLayerRecordId } from "@effectively-once/contract";
import type { IdForm } from "./function-ids";
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
 * The id forms the stack's outputs name, its own first, for showing where a key's record is (`trace`). They are not
 * what decides a redrive: the outputs may predate the last deploy (a rollback), so a key's memory counts only the forms
 * the deployed function's configuration names (function-ids.ts). A stack deployed by release 0.2 or earlier has no
 * such outputs: its function named its records after itself (`function_name`).
 */
function outputIdForms(ctx: Pick<OpsContext, "outputs" | "targetLabel">): IdForm[] {
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

/** The table and id of the key's Powertools record, in the form the outputs name (for `trace`). */
export function powertoolsRecordAddress(ctx: OpsContext, key: string, operation: string): { readonly table: string; readonly id: string } {
  return { table: requireOutput(ctx, OutputName.IdempotencyTable), id: secondLayerRecordId(outputIdForms(ctx)[0].ids, key, operation) };
}

/**
 * Every Powertools record of the key under `forms` (consistent reads), in their order: by default the forms the
 * outputs name (for showing); a key's memory passes the deployed function's own (`honouredIds`).
 */
export async function getPowertoolsRecords(ctx: OpsContext, key: string, operation: string, forms: readonly IdForm[] = outputIdForms(ctx)): Promise<PowertoolsRecord[]> {
  const table = requireOutput(ctx, OutputName.IdempotencyTable);
  const read = async ({ ids, legacy }: IdForm): Promise<PowertoolsRecord | undefined> => {
    const id = secondLayerRecordId(ids, key, operation);
    const { Item } = await awsCall("reading the Powertools record", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the idempotency table ${table}` }, () =>
      ctx.dynamodb.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true })),
    );
    return Item ? toPowertoolsRecord(Item, id, legacy) : undefined;
  };
  const found = await Promise.all(forms.map(read));
  return found.filter((record): record is PowertoolsRecord => record !== undefined);
}

/** The key's Powertools record under the outputs' forms (for `trace`): its own ids', else the earlier releases'; undefined when there is none. */
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
