/** Root of errors raised while turning a synthesized stack into local resources. */
export class ProvisionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProvisionError";
  }
}

/** A `${type.name.attribute}` reference the local cloud cannot give a value to. */
export class UnresolvedReferenceError extends ProvisionError {
  constructor(
    readonly resource: string,
    readonly attribute: string,
    readonly usedBy: string,
    why: string,
  ) {
    super(`cannot resolve \${${attribute ? `${resource}.${attribute}` : resource}} used by ${usedBy}: ${why}`);
    this.name = "UnresolvedReferenceError";
  }
}

/** The stack file is missing or is not a synthesized CDKTF stack. */
export class StackFileError extends ProvisionError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StackFileError";
  }
}
