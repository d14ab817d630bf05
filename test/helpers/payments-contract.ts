/** The payments example's contract as the construct hands it to the function and the state machine. */
import { effectiveRules } from "../../src/contract/field-rules";
import { encodeFieldRules } from "../../src/contract/function-env";
import { PAYMENTS_BUSINESS_KEY, PAYMENTS_FIELD_RULES, PAYMENTS_PAYLOAD_FIELDS } from "../../examples/payments/identity";

export const PAYMENTS_RULES = effectiveRules(PAYMENTS_BUSINESS_KEY.requiredFields, PAYMENTS_PAYLOAD_FIELDS, PAYMENTS_FIELD_RULES);

export const PAYMENTS_CONTRACT = { fieldRules: PAYMENTS_RULES, payloadFields: [...PAYMENTS_PAYLOAD_FIELDS] };

/** The value of PIPELINE_FIELD_RULES for the payments function. */
export const PAYMENTS_FIELD_RULES_ENV = encodeFieldRules(PAYMENTS_RULES);
