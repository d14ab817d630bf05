/** Errors of the end-to-end suite's support code. */

/** Root of every error the e2e support code raises on purpose. */
export class E2eError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "E2eError";
  }
}

/** An E2E_* environment variable holds a value the suite cannot use; the message names it and the fix. */
export class E2eSettingsError extends E2eError {
  readonly variable: string;

  constructor(variable: string, message: string, options?: { cause?: unknown }) {
    super(`${variable}: ${message}`, options);
    this.name = "E2eSettingsError";
    this.variable = variable;
  }
}

/** The stack outputs (a `cdktf deploy --outputs-file` file or a local cloud's outputs) lack what the suite needs. */
export class StackOutputsError extends E2eError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StackOutputsError";
  }
}

/** Published messages did not all reach a final fate before the deadline. */
export class SettleTimeoutError extends E2eError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SettleTimeoutError";
  }
}
