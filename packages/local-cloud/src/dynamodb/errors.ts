/** Root of every error the local DynamoDB module throws. */
export class LocalDynamoError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LocalDynamoError";
  }
}

/** dynalite or the fault proxy did not start. */
export class DynamoStartError extends LocalDynamoError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DynamoStartError";
  }
}

/** Bad options (the message names the field and the fix). */
export class InvalidDynamoOptionError extends LocalDynamoError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidDynamoOptionError";
  }
}
