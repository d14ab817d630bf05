/** Root of every error the local Lambda runner throws. */
export class LocalLambdaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LocalLambdaError";
  }
}

/** Errors the Lambda API itself returns (the invocation never ran); `name` is Lambda's error code. */
class LambdaServiceError extends LocalLambdaError {
  /** The HTTP status Lambda answers with. */
  readonly statusCode: number;
  readonly $fault: "client" | "server";
  constructor(name: string, statusCode: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = name;
    this.statusCode = statusCode;
    this.$fault = statusCode >= 500 ? "server" : "client";
  }
}

export class ResourceNotFoundException extends LambdaServiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("ResourceNotFoundException", 404, message, options);
  }
}

export class TooManyRequestsException extends LambdaServiceError {
  /** Lambda says why: here always the function's reserved concurrency. */
  readonly Reason = "ReservedFunctionConcurrentInvocationLimitExceeded";
  constructor(message = "Rate Exceeded.", options?: { cause?: unknown }) {
    super("TooManyRequestsException", 429, message, options);
  }
}

export class InvalidRequestContentException extends LambdaServiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("InvalidRequestContentException", 400, message, options);
  }
}

export class InvalidParameterValueException extends LambdaServiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("InvalidParameterValueException", 400, message, options);
  }
}

export class RequestTooLargeException extends LambdaServiceError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("RequestTooLargeException", 413, message, options);
  }
}

/** The runner's own configuration is wrong (the message names the field and the fix). */
export class InvalidLambdaConfigError extends LocalLambdaError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidLambdaConfigError";
  }
}
