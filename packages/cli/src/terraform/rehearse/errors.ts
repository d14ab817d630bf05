import { TerraformToolError } from "../errors";

/** Root of the rehearsal's own errors (terraform failures stay TerraformCommandError). */
export class RehearsalError extends TerraformToolError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RehearsalError";
  }
}

/** moto_server, terraform or the provider mirror is missing: the rehearsal did not run (exit 3, never "passed"). */
export class RehearsalNotRunError extends RehearsalError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RehearsalNotRunError";
  }
}

/** Bad command-line input: names the flag and the fix (exit 2). */
export class RehearsalUsageError extends RehearsalError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RehearsalUsageError";
  }
}
