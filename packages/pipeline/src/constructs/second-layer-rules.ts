import type { PropRule } from "./prop-rules";

/** A bare Lambda function name (CreateFunction's model: 1-64 letters, digits, hyphens, underscores). */
const FUNCTION_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The second layer's ids: the earlier releases' prefix must be a name those releases could have used. */
export const SECOND_LAYER_RULES: readonly PropRule[] = [
  {
    name: "function.legacyIdempotencyKeyPrefix",
    after: ["namePrefix"],
    check: (p) => {
      const prefix = p.function.legacyIdempotencyKeyPrefix;
      if (prefix === false || FUNCTION_NAME.test(prefix)) return undefined;
      return {
        prop: "function.legacyIdempotencyKeyPrefix",
        value: prefix,
        reason: "is not a Lambda function name, so it names no record an earlier release wrote (they were named after the function)",
        fix: "give the function's name under release 0.2 (1-64 letters, digits, '-' or '_'), or false on a stack first deployed with this release",
      };
    },
  },
];
