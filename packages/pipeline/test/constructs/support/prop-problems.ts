import type { PropProblem } from "../../../src/constructs/errors";
import { PIPELINE_RULES } from "../../../src/constructs/invariants";
import { runPropRules } from "../../../src/constructs/prop-rules";
import type { IdempotentPipelineProps } from "../../../src/constructs/props";
import { resolveProps } from "../../../src/constructs/resolve-props";

/** The smallest props the construct accepts: the rule suites change one prop over them. */
export const BASE_PROPS: IdempotentPipelineProps = {
  namePrefix: "t",
  businessKey: { expression: "[tenantId, orderId]", requiredFields: ["tenantId", "orderId"] },
  payloadFields: ["amount"],
  function: { entry: "x.ts" },
};

/** What the construct's prop rules refuse in {@link BASE_PROPS} with `props` over them (none: accepted). */
export function propProblems(props: Partial<IdempotentPipelineProps>): readonly PropProblem[] {
  return runPropRules(PIPELINE_RULES, resolveProps({ ...BASE_PROPS, ...props })).problems;
}
