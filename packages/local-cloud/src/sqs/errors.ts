/** Root of every error the local SQS module throws. */
class LocalSqsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LocalSqsError";
  }
}

/** The emulator did not start (or did not stop) in time. */
export class SqsEmulatorStartError extends LocalSqsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SqsEmulatorStartError";
  }
}

/** A Terraform aws_sqs_queue value cannot be turned into CreateQueue attributes. */
export class InvalidQueueConfigError extends LocalSqsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidQueueConfigError";
  }
}
