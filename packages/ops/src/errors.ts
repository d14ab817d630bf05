import { ExitCode } from "./exit-codes";

/** Root of every error the operator CLI raises on purpose; `exitCode` is what the process exits with. */
export class OpsError extends Error {
  readonly exitCode: ExitCode = ExitCode.Failure;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OpsError";
  }
}

/** The command line is wrong: the message names the argument and the fix. */
export class UsageError extends OpsError {
  override readonly exitCode: ExitCode = ExitCode.Usage;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UsageError";
  }
}

/** The target cannot be used: missing state or outputs file, endpoint down, credentials, queue or table not found. */
export class TargetError extends OpsError {
  override readonly exitCode: ExitCode = ExitCode.Target;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TargetError";
  }
}

/** Nothing matched: unknown key, empty DLQ, no message selected. */
export class NotFoundError extends OpsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "NotFoundError";
  }
}

/** The operation would be unsafe and was not done; the message says why and what would allow it. */
export class RefusedError extends OpsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RefusedError";
  }
}

/** The state changed between read and write (a conditional write failed): nothing was changed. */
export class ConflictError extends OpsError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ConflictError";
  }
}
