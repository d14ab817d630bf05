/** Errors of the pipeline's contract: what a message must look like to be processed. */

/** A message value breaks the canonical rules; `field` is its path in the body, e.g. `amount` or `items[0].price`. */
export class CanonicalValueError extends Error {
  readonly field: string;

  constructor(field: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CanonicalValueError";
    this.field = field;
  }
}

/** A field rule or key configuration is unusable (found at synth): which prop, what is wrong, and the fix. */
export class ContractConfigError extends Error {
  constructor(
    readonly prop: string,
    readonly value: unknown,
    readonly reason: string,
    readonly fix: string,
    options?: { cause?: unknown },
  ) {
    super(`${prop} = ${JSON.stringify(value)} ${reason}. Fix: ${fix}`, options);
    this.name = "ContractConfigError";
  }
}
