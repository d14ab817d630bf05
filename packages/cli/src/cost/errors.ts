/** Root of every error the cost model raises on purpose. */
export class CostModelError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CostModelError";
  }
}

/** The prices file is missing a field or holds a value of the wrong shape; the message names the entry and the fix. */
export class InvalidPricesError extends CostModelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidPricesError";
  }
}

/** The synthesized stack cannot be read, or lacks a resource the model needs. */
export class StackConfigError extends CostModelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StackConfigError";
  }
}

/** A scenario or assumption value is out of range: the message names the field (or flag) and the accepted range. */
export class InvalidInputError extends CostModelError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "InvalidInputError";
  }
}
