import {
  IdempotencyAlreadyInProgressError,
  IdempotencyValidationError,
} from "@aws-lambda-powertools/idempotency";
import {
  ConfigurationError,
  DownstreamConflictError,
  DownstreamStateError,
  PERMANENT_ERROR_NAMES,
  CONFLICT_ERROR_NAMES,
  PipelineFunctionError,
  ValidationError,
  isPermanentError,
} from "../../functions/errors";

describe("Module: functions/errors", () => {
  it("lists the permanent and the conflict names, the latter including the name Powertools sets on a payload mismatch", () => {
    // Arrange
    const powertools = new IdempotencyValidationError("mismatch");

    // Act / Assert
    expect(PERMANENT_ERROR_NAMES).toEqual(["ValidationError", "DownstreamRefusedError"]);
    expect(CONFLICT_ERROR_NAMES).toEqual([powertools.name, "DownstreamConflictError"]);
    expect(powertools.name).toBe("IdempotencyValidationError");
  });

  it.each<[Error, string, boolean]>([
    [new ValidationError("payload.amount", "bad"), "ValidationError", true],
    [new DownstreamConflictError("t1#o-42#charge", "different charge"), "DownstreamConflictError", true],
    [new IdempotencyValidationError("mismatch"), "IdempotencyValidationError", true],
    [new IdempotencyAlreadyInProgressError("busy"), "IdempotencyAlreadyInProgressError", false],
    [new DownstreamStateError("gone"), "DownstreamStateError", false],
    [new ConfigurationError("AWS_REGION", "unset"), "ConfigurationError", false],
    [new Error("socket hang up"), "Error", false],
  ])("classifies %p by its name", (error, name, permanent) => {
    // Act / Assert
    expect(error.name).toBe(name);
    expect(isPermanentError(error)).toBe(permanent);
  });

  it("keeps the cause and the root class", () => {
    // Arrange
    const cause = new Error("root cause");

    // Act
    const error = new DownstreamStateError("wrapped", { cause });

    // Assert
    expect(error).toBeInstanceOf(PipelineFunctionError);
    expect(error.cause).toBe(cause);
  });
});
