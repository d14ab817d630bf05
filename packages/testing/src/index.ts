/**
 * The repository's shared test helpers, by name, for every workspace's tests (a private workspace, never published).
 * This entry is light: it loads neither cdktf nor the construct. Synthesizing or building the test stack, and the
 * construct's refusals, are `@effectively-once/testing/stack` (src/stack.ts).
 */
export { checkOperationShape, checkTaskArguments, operationOfResource } from "./aws-models/arguments";
export { MODEL_FILES, serviceModel, shapeOf } from "./aws-models/model";
export type { ModelFile } from "./aws-models/model";
export { createTable, startBareDynalite } from "./bare-dynalite";
export type { LocalDynamo } from "./bare-dynalite";
export { pkSkTable, startDynalite } from "./dynalite";
export type { Dynalite } from "./dynalite";
export { FakeClock } from "./fake-clock";
export { machine, runOnce, single, types } from "./machine";
export { orderKey, ORDERS_FIELD_RULES, ORDERS_KEY, ORDERS_OPERATION, ORDERS_PAYLOAD_FIELDS, PAYMENTS_FIELD_RULES_ENV, PAYMENTS_RULES } from "./orders-contract";
export { PIPELINE_TEST_PARAMS } from "./pipeline-params";
export { referenceTo, resourceNamed, resourcesOfType, TEST_APP, TEST_STACK } from "./terraform-json";
export type { SynthesizedStack, TerraformJson } from "./terraform-json";
export { writeTerraformOutputs } from "./terraform-outputs";
export { TICKETS_CONTRACT, TICKETS_PROFILE } from "./tickets-profile";
export { waitFor } from "./wait-for";
