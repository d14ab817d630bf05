/**
 * The pipeline for cdktf apps: what a team's stack file imports. Add an {@link IdempotentPipeline} to a
 * `TerraformStack`, describe the domain (business key, operation, payload fields, field rules, handler file), and,
 * for the project's tools, export the stack as a {@link PipelineApp} and a {@link MessageProfile}. The Lambda side
 * is the `@effectively-once/pipeline/handler` entry; `@effectively-once/pipeline/cdktn` is this entry for CDK Terrain.
 */
export { IdempotentPipeline, EffectJournalTable, InvalidPropError, LambdaRuntime, PipelineConfigError, ProducerKind } from "./constructs";
export type { BusinessKeyProps, DownstreamFunctionProps, EffectJournalTableProps, FifoProps, IdempotentPipelineProps, PipelineDomain, PipelineEncryptionProps, PolicyStatement } from "./constructs";
/** Who may send to the source queue and the queues' other grants (`queueAccess`), and the producers as the stack grants them. */
export type { DeclaredProducer, PrincipalProducer, QueueAccessProps, QueuePolicyStatement, QueueProducer, ServiceProducer } from "./constructs";
export { contractEnvironment } from "@effectively-once/contract";
/** The synth-time rules alone: checks resolved props as `new IdempotentPipeline(...)` would, without a stack. */
export { assertPipelineInvariants, pipelineAccepts } from "./constructs/invariants";
export { stackConfigFromEnv } from "./app/config";
export type { StackConfig } from "./app/config";
export type { PipelineApp, PipelineOverrides } from "./app/pipeline-app";
export type { MessageProfile } from "./app/profile";
export type { FieldRule, FieldRules } from "@effectively-once/contract";
/** The contract's vocabulary: a ledger claim's status, what a record became, why a message is in the DLQ. */
export { ClaimStatus } from "@effectively-once/contract";
export { DlqReason, RecordOutcome } from "@effectively-once/contract";
/** The ledger key of a body's key parts, as the state machine derives it: for producers, tools and tests. */
export { businessKeyText } from "@effectively-once/contract";
