/** Provisioning of a synthesized CDKTF stack into the local emulators. */
export { loadStackFile } from "./stack-file";
export type { StackFile } from "./stack-file";
export { provisionStack } from "./provision";
export type { LocalFunction, LocalPipe, LocalQueue, LocalStateMachine, LocalTable, ProvisionedStack } from "./provision";
export { ProvisionError, StackFileError, UnresolvedReferenceError } from "./errors";
export { LOCAL_ACCOUNT } from "./attributes";
export { resolveString } from "./references";
export { literalOutputs } from "./literal-outputs";
