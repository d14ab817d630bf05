import type { AttributeScalar, DynamoRequestInfo, DynamoRequestMatcher } from "./types";

type Json = Record<string, unknown>;

/** Turns an `X-Amz-Target` header and a parsed body into the request description rules match on. */
export function describeDynamoRequest(target: string | undefined, body: Json, caller?: string): DynamoRequestInfo {
  const operation = (target ?? "").split(".")[1] ?? "";
  const tables = [...new Set(itemRefs(body).map((ref) => ref.table))];
  if (typeof body.TableName === "string" && !tables.includes(body.TableName)) tables.unshift(body.TableName);
  return { operation, tables, body, caller };
}

/** An item or key carried by a request, with its table. */
interface ItemRef {
  table: string;
  attributes: Json;
}

/** Every item/key in the request: Item, Key, BatchWriteItem/BatchGetItem entries, TransactWrite/Get entries. */
function itemRefs(body: Json): ItemRef[] {
  const refs: ItemRef[] = [];
  const table = typeof body.TableName === "string" ? body.TableName : "";
  if (isObject(body.Item)) refs.push({ table, attributes: body.Item });
  if (isObject(body.Key)) refs.push({ table, attributes: body.Key });
  if (isObject(body.RequestItems)) {
    for (const [name, entry] of Object.entries(body.RequestItems)) {
      if (Array.isArray(entry)) {
        for (const write of entry) {
          if (isObject(write) && isObject(write.PutRequest) && isObject(write.PutRequest.Item)) {
            refs.push({ table: name, attributes: write.PutRequest.Item });
          }
          if (isObject(write) && isObject(write.DeleteRequest) && isObject(write.DeleteRequest.Key)) {
            refs.push({ table: name, attributes: write.DeleteRequest.Key });
          }
        }
      } else if (isObject(entry) && Array.isArray(entry.Keys)) {
        for (const key of entry.Keys) if (isObject(key)) refs.push({ table: name, attributes: key });
      } else {
        refs.push({ table: name, attributes: {} });
      }
    }
  }
  if (Array.isArray(body.TransactItems)) {
    for (const entry of body.TransactItems) {
      if (!isObject(entry)) continue;
      for (const part of Object.values(entry)) {
        if (!isObject(part) || typeof part.TableName !== "string") continue;
        const attributes = isObject(part.Item) ? part.Item : isObject(part.Key) ? part.Key : {};
        refs.push({ table: part.TableName, attributes });
      }
    }
  }
  return refs;
}

/** True when the request satisfies every field of the matcher (an empty matcher matches everything). */
export function matchesDynamoRequest(matcher: DynamoRequestMatcher | undefined, request: DynamoRequestInfo): boolean {
  if (!matcher) return true;
  if (matcher.operation !== undefined && !oneOf(matcher.operation, request.operation)) return false;
  if (matcher.table !== undefined && !request.tables.some((t) => oneOf(matcher.table as string | string[], t))) {
    return false;
  }
  if (matcher.caller !== undefined && (request.caller === undefined || !oneOf(matcher.caller, request.caller))) {
    return false;
  }
  if (matcher.item !== undefined) {
    const wanted = Object.entries(matcher.item);
    const found = itemRefs(request.body).some(
      (ref) =>
        (matcher.table === undefined || oneOf(matcher.table, ref.table)) &&
        wanted.every(([name, value]) => attributeEquals(ref.attributes[name], value)),
    );
    if (!found) return false;
  }
  if (matcher.where !== undefined && !matcher.where(request)) return false;
  return true;
}

function oneOf(expected: string | string[], actual: string): boolean {
  return Array.isArray(expected) ? expected.includes(actual) : expected === actual;
}

/** Compares a DynamoDB attribute value (`{ S: "x" }`, `{ N: "1" }`, ...) with a plain scalar. */
function attributeEquals(attribute: unknown, expected: AttributeScalar): boolean {
  if (!isObject(attribute)) return false;
  if (expected === null) return attribute.NULL === true;
  if (typeof expected === "boolean") return attribute.BOOL === expected;
  if (typeof expected === "number") return typeof attribute.N === "string" && Number(attribute.N) === expected;
  return attribute.S === expected || (typeof attribute.N === "string" && attribute.N === expected);
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
