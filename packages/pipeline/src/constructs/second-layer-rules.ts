import { cite, NAME_LIMITS } from "./aws-limits";
import type { PropRule } from "./prop-rules";

const LAMBDA_NAME = NAME_LIMITS["lambda-function"];

/** The second layer's ids: the earlier releases' prefix must be a name those releases could have used. */
export const SECOND_LAYER_RULES: readonly PropRule[] = [
  {
    name: "function.legacyIdempotencyKeyPrefix",
    // Its default is the function's name: a refused name would only be reported twice.
    after: ["namePrefix", "function.name"],
    check: (p) => {
      const prefix = p.function.legacyIdempotencyKeyPrefix;
      if (prefix === false || (prefix.length >= LAMBDA_NAME.min && prefix.length <= LAMBDA_NAME.max && LAMBDA_NAME.pattern.test(prefix))) return undefined;
      return {
        prop: "function.legacyIdempotencyKeyPrefix",
        value: prefix,
        reason: "is not a Lambda function name, so it names no record an earlier release wrote (they were named after the function)",
        fix: `give the function's name under release 0.2 (${LAMBDA_NAME.min}-${LAMBDA_NAME.max} ${LAMBDA_NAME.allowed}; ${cite(LAMBDA_NAME.source)}), or false on a stack first deployed with this release`,
      };
    },
  },
];
