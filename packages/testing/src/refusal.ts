import type { InvalidPropError } from "@effectively-once/pipeline";

/** The InvalidPropError a build throws (fails the test when it throws nothing, or something else). */
export function errorOf(fn: () => unknown): InvalidPropError {
  try {
    fn();
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the construct, loaded by the build that threw
    const { InvalidPropError: Refusal } = require("@effectively-once/pipeline") as typeof import("@effectively-once/pipeline");
    if (error instanceof Refusal) return error;
    throw error;
  }
  throw new Error("expected an InvalidPropError, nothing was thrown");
}
