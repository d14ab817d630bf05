/** Root of every error the fault-plan module throws. */
class FaultPlanError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FaultPlanError";
  }
}

/** A fault plan spec is malformed; the message names the field and the fix. */
export class InvalidFaultPlanError extends FaultPlanError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidFaultPlanError";
  }
}
