/**
 * The size DynamoDB bills an item at (AWS: "Item sizes and formats"): each attribute's name plus its value, where a
 * string counts its UTF-8 bytes, a number about one byte per two significant digits plus one, booleans and nulls
 * one, and a map or list 3 bytes plus its elements (and a byte per element). The cost model's item sizes are
 * checked against items the local cloud really wrote.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";

function numberBytes(text: string): number {
  const digits = text.replace(/^-/, "").replace(/[eE].*$/, "").replace(".", "").replace(/^0+/, "");
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

function valueBytes(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S, "utf8");
  if (value.N !== undefined) return numberBytes(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.M !== undefined) return 3 + Object.entries(value.M).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k, "utf8") + valueBytes(v), 0);
  if (value.L !== undefined) return 3 + value.L.reduce((n, v) => n + 1 + valueBytes(v), 0);
  if (value.SS !== undefined) return value.SS.reduce((n, s) => n + Buffer.byteLength(s, "utf8"), 0);
  if (value.NS !== undefined) return value.NS.reduce((n, s) => n + numberBytes(s), 0);
  return 0;
}

/** Bytes of one item in DynamoDB's accounting. */
export function dynamoItemBytes(item: Readonly<Record<string, AttributeValue>>): number {
  return Object.entries(item).reduce((n, [name, value]) => n + Buffer.byteLength(name, "utf8") + valueBytes(value), 0);
}
