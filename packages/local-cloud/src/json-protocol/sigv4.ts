import { createHash, createHmac } from "node:crypto";

export interface SigningCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

interface SignInput {
  readonly method: string;
  readonly host: string;
  /** Path of the request, e.g. `/` or `/w/payments-3` (no query string). */
  readonly path: string;
  /** Lower-case header names; `host` and `x-amz-date` are added here. */
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly region: string;
  readonly service: string;
  readonly now?: Date;
}

const sha256 = (data: string) => createHash("sha256").update(data, "utf8").digest("hex");
const hmac = (key: Buffer | string, data: string) => createHmac("sha256", key).update(data, "utf8").digest();

/** Signing keys change once a day per region/service: compute each once. */
const keyCache = new Map<string, Buffer>();

function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const id = `${secret}/${date}/${region}/${service}`;
  let key = keyCache.get(id);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), "aws4_request");
    if (keyCache.size > 64) keyCache.clear();
    keyCache.set(id, key);
  }
  return key;
}

/** Encodes a path segment by segment as SigV4's canonical URI wants it (the DynamoDB/SQS JSON paths are plain). */
function canonicalPath(path: string): string {
  return path
    .split("/")
    .map((segment) => encodeURIComponent(decodeURIComponent(segment)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join("/");
}

/**
 * Signs a request with AWS Signature Version 4 (header form, as the AWS SDK sends it) and returns the headers to
 * send: the given ones plus `host`, `x-amz-date`, `x-amz-security-token` (with a session token) and `authorization`.
 */
export function signRequest(input: SignInput, credentials: SigningCredentials): Record<string, string> {
  const iso = (input.now ?? new Date()).toISOString().replace(/[:-]|\.\d{3}/g, "");
  const date = iso.slice(0, 8);
  const headers: Record<string, string> = { ...input.headers, host: input.host, "x-amz-date": iso };
  if (credentials.sessionToken) headers["x-amz-security-token"] = credentials.sessionToken;
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${headers[name].trim().replace(/\s+/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [input.method, canonicalPath(input.path || "/"), "", canonicalHeaders, signedHeaders, sha256(input.body)].join("\n");
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", iso, scope, sha256(canonicalRequest)].join("\n");
  const signature = createHmac("sha256", signingKey(credentials.secretAccessKey, date, input.region, input.service)).update(stringToSign, "utf8").digest("hex");
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
