/**
 * AWS's TestState API on the local interpreter: one state, or a state of a whole machine, with input, variables,
 * mocks, a context object and inspection levels, answered with AWS's shapes, statuses and errors.
 *
 * ```ts
 * const answer = await testState({ definition: JSON.stringify(state), input: '{"a":1}', inspectionLevel: "DEBUG" });
 * // answer.status: SUCCEEDED | FAILED | RETRIABLE | CAUGHT_ERROR; answer.output, nextState, inspectionData
 * ```
 * What is supported and what differs from AWS: README.md next to the interpreter.
 */
export { testState, type TestStateOptions } from "./run";
/** What TestState answers with instead of a result: `code` is the AWS error code (ValidationException, InvalidDefinition, ...). */
export { TestStateApiError } from "./errors";
export { FieldValidationMode, InspectionLevel, TestStatus } from "./types";
export type { InspectionData, InspectionErrorDetails, MockErrorOutput, TestStateInput, TestStateMock, TestStateOutput } from "./types";
