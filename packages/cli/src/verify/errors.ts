/** The errors of `npx effectively-once verify`, each one sentence for the reader: usage (exit 2) and refusals (exit 2, nothing sent). */
export class VerifyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "VerifyError";
  }
}

/** A flag is wrong or missing. */
export class VerifyUsageError extends VerifyError {
  constructor(message: string) {
    super(message);
    this.name = "VerifyUsageError";
  }
}

/** The outputs name something other than the probe stack verify deployed: no probe is sent. */
export class NotTheProbeStackError extends VerifyError {
  constructor(message: string) {
    super(message);
    this.name = "NotTheProbeStackError";
  }
}
