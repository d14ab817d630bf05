/** Root of the errors of the lean JSON-protocol client. */
class JsonProtocolError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "JsonProtocolError";
  }
}

/** The client was given a command it cannot send (no operation name, or not a JSON-protocol command). */
export class UnsupportedCommandError extends JsonProtocolError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnsupportedCommandError";
  }
}

/**
 * An error answer of the service, shaped like an AWS SDK v3 service exception: `name` is the AWS error code
 * (e.g. `ConditionalCheckFailedException`), with `$metadata`, `$fault` and the answer's other fields.
 */
export class ServiceError extends Error {
  readonly $fault: "client" | "server";
  readonly $metadata: { readonly httpStatusCode: number; readonly requestId?: string; readonly attempts: number; readonly totalRetryDelay: number };
  constructor(name: string, message: string, statusCode: number, requestId: string | undefined, fields: Record<string, unknown>) {
    super(message);
    Object.assign(this, fields);
    this.name = name;
    this.$fault = statusCode >= 500 ? "server" : "client";
    this.$metadata = { httpStatusCode: statusCode, requestId, attempts: 1, totalRetryDelay: 0 };
  }
}
