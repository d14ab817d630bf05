import { InvalidPropError } from "@effectively-once/pipeline";

/** The InvalidPropError a build throws (fails the test when it throws nothing, or something else). */
export function errorOf(fn: () => unknown): InvalidPropError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidPropError) return error;
    throw error;
  }
  throw new Error("expected an InvalidPropError, nothing was thrown");
}
