/**
 * StartSyncExecution's check of its input, as AWS makes it: `input` is at most 262,144, "expressed as bytes in UTF-8
 * encoding" (botocore's states model, SensitiveData). A larger input is refused before any execution exists, with
 * the JSON protocol's constraint error (HTTP 400, a client error): the pipe then treats the batch as failed
 * (pipes/invoke-target.ts), and its messages come back after their visibility timeout.
 */
import { SYNC_EXECUTION_INPUT_BYTES } from "@effectively-once/contract";

class ValidationException extends Error {
  readonly $fault = "client";
  readonly $metadata = { httpStatusCode: 400 };
  constructor(message: string) {
    super(message);
    this.name = "ValidationException";
  }
}

/** Throws ValidationException when the input's JSON is more UTF-8 bytes than StartSyncExecution accepts. */
export function assertSyncExecutionInput(input: unknown): void {
  const bytes = Buffer.byteLength(JSON.stringify(input) ?? "");
  if (bytes <= SYNC_EXECUTION_INPUT_BYTES) return;
  // AWS's wording for a length constraint; a sensitive member's value is not echoed.
  throw new ValidationException(`1 validation error detected: Value at 'input' failed to satisfy constraint: Member must have length less than or equal to ${SYNC_EXECUTION_INPUT_BYTES}`);
}
