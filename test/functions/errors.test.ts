import { IdempotencyAlreadyInProgressError, IdempotencyValidationError } from "@aws-lambda-powertools/idempotency";
import {
  ConfigurationError,
  ConflictError,
  DownstreamConflictError,
  DownstreamRefusedError,
  DownstreamStateError,
  PermanentError,
  PipelineFunctionError,
  ValidationError,
} from "../../functions";
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES, isPermanentError, reportedError } from "../../functions/errors";
import { DEFAULTS } from "../../src/constructs/props";

class CustomRefusal extends PermanentError {
  constructor(message: string) {
    super(message);
    this.name = "CustomRefusal";
  }
}

class CustomConflict extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = "CustomConflict";
  }
}

describe("Module: functions/errors", () => {
  it("names every permanent and conflict class as the construct's defaults list it, with Powertools' own mismatch name", () => {
    // Arrange
    const permanent = [new PermanentError("x"), new ValidationError("payload.a", "x"), new DownstreamRefusedError("x")];
    const conflicts = [new IdempotencyValidationError("x"), new ConflictError("x"), new DownstreamConflictError("k", "x")];

    // Act / Assert
    expect(permanent.map((e) => e.name)).toEqual([...PERMANENT_ERROR_NAMES]);
    expect(conflicts.map((e) => e.name)).toEqual([...CONFLICT_ERROR_NAMES]);
    expect(DEFAULTS.permanentErrors).toEqual(PERMANENT_ERROR_NAMES);
    expect(DEFAULTS.conflictErrors).toEqual(CONFLICT_ERROR_NAMES);
  });

  it.each<[Error, string, boolean]>([
    [new ValidationError("payload.amount", "bad"), "ValidationError", true],
    [new DownstreamConflictError('["a"]#op', "different effect"), "DownstreamConflictError", true],
    [new IdempotencyValidationError("mismatch"), "IdempotencyValidationError", true],
    [new CustomRefusal("no"), "CustomRefusal", true],
    [new IdempotencyAlreadyInProgressError("busy"), "IdempotencyAlreadyInProgressError", false],
    [new DownstreamStateError("gone"), "DownstreamStateError", false],
    [new ConfigurationError("AWS_REGION", "unset"), "ConfigurationError", false],
    [new Error("socket hang up"), "Error", false],
  ])("classifies %p (name %s) by class or name", (error, name, permanent) => {
    // Act / Assert
    expect(error.name).toBe(name);
    expect(isPermanentError(error)).toBe(permanent);
  });

  it.each<[Error, string]>([
    [new CustomRefusal("13 is refused"), "PermanentError"],
    [new CustomConflict("taken"), "ConflictError"],
  ])("reports a subclass with an unlisted name under its base name, keeping message and cause: %p", (error, reported) => {
    // Act
    const result = reportedError(error) as Error;

    // Assert
    expect(result).toMatchObject({ name: reported, message: error.message, cause: error });
  });

  it.each([new ValidationError("payload.a", "bad"), new DownstreamConflictError("k", "x"), new DownstreamStateError("gone"), new Error("other")])(
    "passes a listed or transient error unchanged: %p",
    (error) => {
      // Act / Assert
      expect(reportedError(error)).toBe(error);
    },
  );

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
