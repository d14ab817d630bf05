/**
 * The heavy helpers: synthesizing and building the test stack (cdktf, the construct, the payments example) and the
 * construct's refusals. The JSON readers and the stack's names are the light main entry's (src/index.ts).
 */
export { errorOf } from "./refusal";
export { buildStack, pipelineOf, synthStack } from "./synth";
