/** A flag, figures file or quotas file holds a bad value: the message names it and the fix (exit code 2). */
export class CapacityInputError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CapacityInputError";
  }
}
