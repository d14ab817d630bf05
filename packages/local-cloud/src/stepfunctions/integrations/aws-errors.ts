/**
 * Turns AWS SDK v3 errors into Step Functions task errors, spelled as Step Functions spells them
 * (`DynamoDB.ConditionalCheckFailedException`, `SQS.AmazonSQSException`, ...) with AWS's cause format.
 */
import { StatesError } from "../errors";

interface SdkErrorLike {
  name?: string;
  message?: string;
  Code?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
  $fault?: string;
}

export function sdkErrorParts(err: unknown): { name: string; message: string; status?: number; requestId: string } {
  const e = (err ?? {}) as SdkErrorLike;
  return {
    name: e.name && e.name !== "Error" ? e.name : (e.Code ?? e.code ?? "Error"),
    message: e.message ?? String(err),
    status: e.$metadata?.httpStatusCode,
    requestId: e.$metadata?.requestId ?? "",
  };
}

/**
 * The Java-SDK-v1 style error used by optimized integrations: modeled exceptions keep their name, others
 * become `<Prefix>.<generic>`; the cause is "<message> (Service: X; Status Code: N; Error Code: C; Request ID: R; Proxy: null)".
 */
export function optimizedError(err: unknown, opts: { prefix: string; service: string; modeled: ReadonlySet<string>; generic: string; normalize?: (n: string) => string }): StatesError {
  if (err instanceof StatesError) return err;
  const p = sdkErrorParts(err);
  if (p.status === undefined) {
    return new StatesError(`${opts.prefix}.SdkClientException`, `Unable to execute HTTP request: ${p.message}`, { cause: err });
  }
  const name = opts.normalize ? opts.normalize(p.name) : p.name;
  const error = opts.modeled.has(name) ? `${opts.prefix}.${name}` : `${opts.prefix}.${opts.generic}`;
  const cause = `${p.message} (Service: ${opts.service}; Status Code: ${p.status}; Error Code: ${p.name}; Request ID: ${p.requestId}; Proxy: null)`;
  return new StatesError(error, cause, { cause: err });
}

/** Response metadata optimized integrations add to every result. */
export function sdkMetadata(meta: { httpStatusCode?: number; requestId?: string } | undefined, contentType: string): Record<string, unknown> {
  const requestId = meta?.requestId ?? "";
  const status = meta?.httpStatusCode ?? 200;
  return {
    SdkHttpMetadata: {
      AllHttpHeaders: { "Content-Type": [contentType], "x-amzn-RequestId": [requestId] },
      HttpHeaders: { "Content-Type": contentType, "x-amzn-RequestId": requestId },
      HttpStatusCode: status,
    },
    SdkResponseMetadata: { RequestId: requestId },
  };
}

/** Removes the SDK's `$metadata` from an output. */
export function stripMetadata(output: object): Record<string, unknown> {
  const { $metadata: _ignored, ...rest } = output as Record<string, unknown>;
  return rest;
}
