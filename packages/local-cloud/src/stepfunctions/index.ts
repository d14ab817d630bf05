/**
 * A Step Functions interpreter for JSONata (and common JSONPath) state machines.
 *
 * ```ts
 * const machine = createStateMachine(definition, { name, arn, integrations: { dynamodb, sqs, lambda } });
 * const run = await machine.execute(input);
 * if (run.status !== "SUCCEEDED") console.error(run.error, run.cause, formatHistory(run.events));
 * ```
 * What is implemented, and where it differs from AWS: see README.md next to this file.
 */
export { CompiledDefinition, createStateMachine } from "./machine";
export { formatHistory } from "./history/format";
export { DefinitionError } from "./errors";
export type { ExecutionResult, HistoryEvent, Integrations, DynamoDbSender, StateMachine, StateMachineOptions, LambdaInvoker } from "./types";
export { mockedStatesOf, MockConfigError } from "./mocks/config";
export type { MockedStates } from "./mocks/config";
