/**
 * The SQS query protocol (form-encoded request, XML answer), for the recordings' `[sqs_query]` variants: no SDK of
 * this repository speaks it any more (AWS CLI 2.9 does, see packages/local-cloud/test/sqs/real-clients). Answers are shaped as
 * botocore's query parser returns them, so they compare with the recordings like the SDK's.
 */
import { LOCAL_CREDENTIALS } from "@effectively-once/contract";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON member → the query protocol's flattened name (the SQS 2012-11-05 model). */
const LISTS = new Map([
  ["AttributeNames", "AttributeName"],
  ["MessageAttributeNames", "MessageAttributeName"],
  ["MessageSystemAttributeNames", "MessageSystemAttributeName"],
]);

function form(action: string, params: Record<string, unknown>): URLSearchParams {
  const out = new URLSearchParams({ Action: action, Version: "2012-11-05" });
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const list = LISTS.get(name);
    if (list && Array.isArray(value)) value.forEach((item, i) => out.set(`${list}.${i + 1}`, String(item)));
    else if (name === "MessageAttributes" && value && typeof value === "object") {
      Object.entries(value as Record<string, Record<string, string>>).forEach(([key, attribute], i) => {
        out.set(`MessageAttribute.${i + 1}.Name`, key);
        for (const [field, inner] of Object.entries(attribute)) out.set(`MessageAttribute.${i + 1}.Value.${field}`, inner);
      });
    } else if (name === "Attributes" && value && typeof value === "object") {
      Object.entries(value as Record<string, string>).forEach(([key, inner], i) => {
        out.set(`Attribute.${i + 1}.Name`, key);
        out.set(`Attribute.${i + 1}.Value`, inner);
      });
    } else out.set(name, String(value));
  }
  return out;
}

const unescape = (text: string): string =>
  text.replace(/&#x([0-9a-f]+);|&#(\d+);|&(lt|gt|amp|quot|apos);/gi, (_all, hex: string, dec: string, named: string) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" } as Record<string, string>)[named],
  );
const all = (xml: string, tag: string): string[] => [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((m) => m[1]);
const one = (xml: string, tag: string): string | undefined => all(xml, tag)[0];

function message(xml: string): Json {
  const out: Record<string, Json> = {};
  for (const field of ["MessageId", "ReceiptHandle", "MD5OfBody", "Body", "MD5OfMessageAttributes"]) {
    const value = one(xml, field);
    if (value !== undefined) out[field] = unescape(value);
  }
  const attributes = all(xml, "Attribute");
  if (attributes.length > 0) out.Attributes = Object.fromEntries(attributes.map((a) => [unescape(one(a, "Name") ?? ""), unescape(one(a, "Value") ?? "")]));
  const custom = all(xml, "MessageAttribute");
  if (custom.length > 0) {
    out.MessageAttributes = Object.fromEntries(
      custom.map((a) => {
        const value = one(a, "Value") ?? "";
        const fields: Record<string, Json> = {};
        for (const field of ["StringValue", "DataType"]) if (one(value, field) !== undefined) fields[field] = unescape(one(value, field) as string);
        return [unescape(one(a, "Name") ?? ""), fields];
      }),
    );
  }
  return out;
}

/** A query-protocol failure as botocore raises it (`ClientError.response`). */
export class QueryFailure extends Error {
  constructor(readonly response: Json) {
    super(JSON.stringify(response));
  }
}

/** Calls one SQS action over the query protocol; resolves to the answer, rejects with a `QueryFailure`. */
export async function queryCall(endpoint: string, action: string, params: Record<string, unknown>): Promise<Json> {
  const response = await fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded; charset=utf-8",
      authorization: `AWS4-HMAC-SHA256 Credential=${LOCAL_CREDENTIALS.accessKeyId}/20260101/us-east-1/sqs/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: form(action, params).toString(),
  });
  const xml = await response.text();
  const metadata = { HTTPHeaders: {}, HTTPStatusCode: response.status };
  if (response.status >= 400) {
    const error = one(xml, "Error") ?? "";
    throw new QueryFailure({
      Error: { Code: unescape(one(error, "Code") ?? ""), Detail: null, Message: unescape(one(error, "Message") ?? ""), Type: one(error, "Type") ?? "" },
      ResponseMetadata: metadata,
    });
  }
  const messages = all(xml, "Message").map(message);
  return { ...(messages.length > 0 ? { Messages: messages } : {}), ResponseMetadata: metadata };
}

/** The botocore-shaped failure of a query call that must fail. */
export async function queryFailure(call: Promise<unknown>): Promise<Json> {
  try {
    await call;
  } catch (error) {
    if (error instanceof QueryFailure) return error.response;
    throw error;
  }
  throw new Error("the query call succeeded; the recording says it fails");
}
