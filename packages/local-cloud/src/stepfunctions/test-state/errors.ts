/**
 * The errors TestState answers with, named as AWS's API model names them (`InvalidArn`, `InvalidDefinition`,
 * `InvalidExecutionInput`, `ValidationException`): HTTP 400, the message as AWS words it where AWS was recorded.
 * Only the endpoint turns them into wire answers.
 */
import { StepFunctionsError } from "../errors";

/** An error TestState answers with (HTTP 400), carrying the AWS error code. */
export abstract class TestStateApiError extends StepFunctionsError {
  /** The AWS error code (`__type` on the wire). */
  abstract readonly code: string;
  /** The HTTP status AWS answers with. */
  readonly statusCode = 400;
}

export class ValidationException extends TestStateApiError {
  readonly code = "ValidationException";
  constructor(message: string) {
    super(message);
    this.name = "ValidationException";
  }
}

export class InvalidDefinition extends TestStateApiError {
  readonly code = "InvalidDefinition";
  constructor(message: string) {
    super(message);
    this.name = "InvalidDefinition";
  }
}

export class InvalidArn extends TestStateApiError {
  readonly code = "InvalidArn";
  constructor(message: string) {
    super(message);
    this.name = "InvalidArn";
  }
}

export class InvalidExecutionInput extends TestStateApiError {
  readonly code = "InvalidExecutionInput";
  constructor(message: string) {
    super(message);
    this.name = "InvalidExecutionInput";
  }
}

/** A member of the wrong JSON type (a protocol error: AWS SDKs and CLIs never send one). */
export class SerializationException extends TestStateApiError {
  readonly code = "SerializationException";
  constructor(message: string) {
    super(message);
    this.name = "SerializationException";
  }
}
