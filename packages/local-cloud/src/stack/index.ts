/** How the tools find and synthesize a stack: the app loader (`PIPELINE_APP`, `--app`), in-process synth, the contract read from outputs. */
export { APP_ENV, appOf, exampleNames, loadApp, loadProfile, loadStackExport } from "./apps";
export { streamContractOf } from "./contract";
export { stackConfigOf, synthStack } from "./synth";
export type { StreamContract } from "./contract";
export { LOAD_WINDOWS, synthLoadStack } from "./load-stack";
export type { LoadStack } from "./load-stack";
