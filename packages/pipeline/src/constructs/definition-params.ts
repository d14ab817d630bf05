import type { PipelineDefinitionParams } from "@effectively-once/statemachines";
import { invokeTimeoutSeconds } from "./invocation-budget";
import type { ResolvedPipelineProps } from "./props";
import { pipelineFieldRules } from "./resolve-props";

/** The names the definition embeds: tokens at synth, literal names where a tool models a stack without synthesizing it. */
export interface DefinitionNames {
  readonly partition: string;
  readonly ledgerTableName: string;
  readonly functionArn: string;
  readonly deadLetterQueueUrl: string;
}

/**
 * The state machine's render parameters for resolved props: one mapping, for the construct (workflow.ts) and for the
 * tools that run the definition without synthesizing a stack (the simulation), so both run the same definition.
 */
export function definitionParams(p: ResolvedPipelineProps, names: DefinitionNames): PipelineDefinitionParams {
  return {
    ...names,
    operation: p.operation,
    keyExpression: p.businessKey.expression,
    fieldRules: pipelineFieldRules(p),
    payloadFields: p.payloadFields,
    leaseSeconds: p.leaseSeconds,
    retentionSeconds: p.retentionSeconds,
    messageRetentionSeconds: p.messageRetentionSeconds,
    executionTimeoutSeconds: p.executionTimeoutSeconds,
    invokeTimeoutSeconds: invokeTimeoutSeconds(p),
    lambdaRetries: p.lambdaRetries,
    maxConcurrency: p.maxConcurrency,
    permanentErrors: p.function.permanentErrors,
    conflictErrors: p.function.conflictErrors,
    ledgerRetry: p.ledgerRetry,
    ...(p.fifo ? { fifo: { maxReceiveCount: p.maxReceiveCount } } : {}),
    ...(p.batchInvocation && !p.fifo ? { batchInvocation: true } : {}),
  };
}
