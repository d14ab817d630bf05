import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { idempotencyRecordId } from "@effectively-once/pipeline/internal/handler/idempotency";
import { awsCall } from "./aws-errors";
import { requireOutput } from "./outputs";
import { type OpsContext } from "./types";
import { OutputName } from "@effectively-once/pipeline/internal/src/contract/outputs";

/** The function's Powertools idempotency record for the key (`expiration` in s, `inProgressExpiration` in ms, as stored). */
export interface PowertoolsRecord {
  readonly status: string;
  readonly expiration?: number;
  readonly inProgressExpiration?: number;
  readonly validation?: string;
  readonly data?: unknown;
}

/** Powertools' status of a record whose invocation finished: the function answers copies from it until `expiration`. */
export const POWERTOOLS_COMPLETED = "COMPLETED";

/** The table and id of the key's Powertools record. */
export function powertoolsRecordAddress(ctx: OpsContext, key: string, operation: string): { readonly table: string; readonly id: string } {
  return { table: requireOutput(ctx, OutputName.IdempotencyTable), id: idempotencyRecordId(requireOutput(ctx, OutputName.FunctionName), key, operation) };
}

/** The key's Powertools record (a consistent read), or undefined when there is none. */
export async function getPowertoolsRecord(ctx: OpsContext, key: string, operation: string): Promise<PowertoolsRecord | undefined> {
  const { table, id } = powertoolsRecordAddress(ctx, key, operation);
  const { Item } = await awsCall("reading the Powertools record", { service: "DynamoDB", endpoint: ctx.endpoints?.dynamodb, resource: `the idempotency table ${table}` }, () =>
    ctx.dynamodb.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true })),
  );
  return Item ? toPowertoolsRecord(Item) : undefined;
}

function toPowertoolsRecord(item: Record<string, unknown>): PowertoolsRecord {
  return {
    status: String(item.status),
    ...(typeof item.expiration === "number" ? { expiration: item.expiration } : {}),
    ...(typeof item.in_progress_expiration === "number" ? { inProgressExpiration: item.in_progress_expiration } : {}),
    ...(typeof item.validation === "string" ? { validation: item.validation } : {}),
    ...(item.data !== undefined ? { data: item.data } : {}),
  };
}
