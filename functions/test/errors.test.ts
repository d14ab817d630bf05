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
} from "../src";
import { CONFLICT_ERROR_NAMES, PERMANENT_ERROR_NAMES } from "@effectively-once/contract";
import { isPermanentError, reportedError } from "../src/errors";
import { DEFAULTS } from "@effectively-once/pipeline/settings";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

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

/** What joi, yup, mongoose and sequelize throw: a plain class named `ValidationError`. */
class LibraryValidationError extends Error {
  override name = "ValidationError";
}

/** What http-errors builds for a 409 (e.g. an idempotency key still in use): transient. */
class HttpConflictError extends Error {
  override name = "ConflictError";
  readonly status = 409;
}

/** Another copy of this package (a second bundle, another version): its own classes, the same registered brand. */
function foreignBranded(kind: string, name: string): Error {
  class Foreign extends Error {
    override name = name;
  }
  Object.defineProperty(Foreign.prototype, Symbol.for("effectively-once-pipeline.error-kind"), { value: kind });
  return new Foreign("from the other copy");
}

/** Where the state machine the construct renders by default sends a function error: its Invoke Catch rules. */
const catches = (() => {
  const definition = renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, permanentErrors: DEFAULTS.permanentErrors, conflictErrors: DEFAULTS.conflictErrors }) as any;
  return definition.States.ProcessBatch.ItemProcessor.States.Invoke.Catch as { ErrorEquals: string[]; Assign: { disposition: string; reason?: string } }[];
})();

function verdict(thrown: unknown): { errorType: string; outcome: string } {
  const reported = reportedError(thrown);
  const errorType = reported instanceof Error ? reported.name : typeof reported;
  const rule = catches.find((c) => c.ErrorEquals.includes(errorType) || c.ErrorEquals.includes("States.ALL"));
  return { errorType, outcome: rule?.Assign.reason ?? rule?.Assign.disposition ?? "unhandled" };
}

describe("Module: functions/errors", () => {
  it("matches only the reserved names and Powertools' own mismatch name by default", () => {
    // Act / Assert
    expect([...PERMANENT_ERROR_NAMES]).toEqual(["PipelineRejected"]);
    expect([...CONFLICT_ERROR_NAMES]).toEqual(["IdempotencyValidationError", "PipelineConflict"]);
    expect(DEFAULTS.permanentErrors).toEqual(PERMANENT_ERROR_NAMES);
    expect(DEFAULTS.conflictErrors).toEqual(CONFLICT_ERROR_NAMES);
  });

  it.each<[string, Error]>([
    ["a library's ValidationError (joi, yup, mongoose, sequelize)", new LibraryValidationError('"amount" must be a number')],
    ["http-errors' ConflictError (409)", new HttpConflictError("idempotency key in use")],
    ["an unbranded error named PipelineRejected", Object.assign(new Error("x"), { name: "PipelineRejected" })],
    ["an unbranded error named PipelineConflict", Object.assign(new Error("x"), { name: "PipelineConflict" })],
    ["an IdempotencyValidationError that is not Powertools' class", Object.assign(new Error("x"), { name: "IdempotencyValidationError" })],
  ])("retries %s: it is never quarantined", (_case, error) => {
    // Act
    const result = verdict(error);

    // Assert
    expect(result.outcome).toBe("retry");
    expect(isPermanentError(error)).toBe(false);
  });

  it.each<[Error, string, string]>([
    [new PermanentError("x"), "PipelineRejected", "rejected"],
    [new ValidationError("payload.a", "x"), "PipelineRejected", "rejected"],
    [new DownstreamRefusedError("x"), "PipelineRejected", "rejected"],
    [new CustomRefusal("13 is refused"), "PipelineRejected", "rejected"],
    [new ConflictError("x"), "PipelineConflict", "payload-mismatch"],
    [new DownstreamConflictError("k", "x"), "PipelineConflict", "payload-mismatch"],
    [new CustomConflict("taken"), "PipelineConflict", "payload-mismatch"],
    [new IdempotencyValidationError("mismatch"), "IdempotencyValidationError", "payload-mismatch"],
  ])("quarantines the wrapper's %p as %s (%s)", (error, errorType, outcome) => {
    // Act / Assert
    expect(verdict(error)).toEqual({ errorType, outcome });
    expect(isPermanentError(error)).toBe(true);
  });

  it.each<[string, string, string]>([
    ["permanent", "OtherCopyRefusal", "rejected"],
    ["conflict", "OtherCopyConflict", "payload-mismatch"],
  ])("recognises a %s error branded by another copy of the package (%s)", (kind, name, outcome) => {
    // Arrange
    const error = foreignBranded(kind, name);

    // Act / Assert
    expect(verdict(error).outcome).toBe(outcome);
    expect(isPermanentError(error)).toBe(true);
  });

  it("reports a branded error under its reserved name with `<name>: <message>` and the original as cause", () => {
    // Arrange
    const error = new ValidationError("payload.amount", "payload.amount: expected an integer");

    // Act
    const result = reportedError(error) as Error;

    // Assert
    expect(result).toMatchObject({ name: "PipelineRejected", message: "ValidationError: payload.amount: expected an integer", cause: error });
    expect(reportedError(result)).toBe(result);
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
  });

  it("renames an unbranded error with a reserved name, keeping it as the cause", () => {
    // Arrange
    const error = Object.assign(new Error("busy"), { name: "PipelineConflict" });

    // Act
    const result = reportedError(error) as Error;

    // Assert
    expect(result).toMatchObject({ name: "ReservedNameError", message: "PipelineConflict: busy", cause: error });
  });

  it.each([new IdempotencyValidationError("m"), new IdempotencyAlreadyInProgressError("busy"), new DownstreamStateError("gone"), new LibraryValidationError("bad"), new Error("other")])(
    "passes Powertools' errors and transient errors unchanged: %p",
    (error) => {
      // Act / Assert
      expect(reportedError(error)).toBe(error);
    },
  );

  it.each<[Error, boolean]>([
    [new IdempotencyAlreadyInProgressError("busy"), false],
    [new DownstreamStateError("gone"), false],
    [new ConfigurationError("AWS_REGION", "unset"), false],
    [new Error("socket hang up"), false],
  ])("classifies %p as transient", (error, permanent) => {
    // Act / Assert
    expect(isPermanentError(error)).toBe(permanent);
    expect(verdict(error).outcome).toBe("retry");
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
