import { createOpsClients, type OpsClients } from "@effectively-once/ops";
import { requireOutput, requireSecondsOutput } from "@effectively-once/ops";
import { resolveTarget, type Target, type TargetOptions } from "@effectively-once/ops";
import { OutputName } from "@effectively-once/contract";
import type { OpsContext } from "@effectively-once/ops";

/** Where an endpoint came from, for the plan: a flag, an AWS_ENDPOINT_URL_* variable, or the SDK's default. */
export interface EndpointSource {
  readonly url?: string;
  readonly from: string;
}

/** A deployed stack, resolved: the ops CLI's target plus the outputs the load tools need. */
export interface RemoteStack {
  readonly target: Target;
  readonly endpoints: { readonly sqs: EndpointSource; readonly dynamodb: EndpointSource };
  readonly queueUrl: string;
  readonly dlqUrl: string;
  readonly ledgerTable: string;
  readonly idempotencyTable: string;
  /** Absent when the stack has no effect journal: then "applied once" cannot be checked. */
  readonly effectsTable?: string;
  readonly operation: string;
  readonly retentionSeconds: number;
}

/**
 * The SDK's own variables (AWS_ENDPOINT_URL_<SERVICE>, then AWS_ENDPOINT_URL), read here and passed as the client's
 * `endpoint`: the SQS client otherwise sends each call to its QueueUrl's host, and an emulator's queue URLs may
 * name a host that does not resolve (`sqs.us-east-1.localhost`). AWS_IGNORE_CONFIGURED_ENDPOINT_URLS turns them off, as in the SDK.
 */
function endpointOf(flagValue: string | undefined, flagName: string, service: "SQS" | "DYNAMODB", env: NodeJS.ProcessEnv): EndpointSource {
  if (flagValue !== undefined) return { url: flagValue, from: flagName };
  if (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === "true") return { from: "the AWS default for the region" };
  const own = env[`AWS_ENDPOINT_URL_${service}`];
  if (own) return { url: own, from: `AWS_ENDPOINT_URL_${service}` };
  if (env.AWS_ENDPOINT_URL) return { url: env.AWS_ENDPOINT_URL, from: "AWS_ENDPOINT_URL" };
  return { from: "the AWS default for the region" };
}

/** Resolves the outputs file (packages/ops/src/target.ts, one reader for every tool) and checks every output the run reads. */
export function resolveRemoteStack(options: TargetOptions, env: NodeJS.ProcessEnv = process.env): RemoteStack {
  const sqs = endpointOf(options.sqsEndpoint, "--sqs-endpoint", "SQS", env);
  const dynamodb = endpointOf(options.dynamodbEndpoint, "--dynamodb-endpoint", "DYNAMODB", env);
  const target = resolveTarget({ outputsFile: options.outputsFile, stack: options.stack, region: options.region, sqsEndpoint: sqs.url, dynamodbEndpoint: dynamodb.url });
  const ctx = { outputs: target.outputs, targetLabel: target.label };
  const effects = target.outputs[OutputName.EffectsTable];
  return {
    target,
    endpoints: { sqs, dynamodb },
    queueUrl: requireOutput(ctx, OutputName.QueueUrl),
    dlqUrl: requireOutput(ctx, OutputName.DlqUrl),
    ledgerTable: requireOutput(ctx, OutputName.LedgerTable),
    idempotencyTable: requireOutput(ctx, OutputName.IdempotencyTable),
    effectsTable: typeof effects === "string" && effects !== "" ? effects : undefined,
    operation: requireOutput(ctx, OutputName.Operation),
    retentionSeconds: requireSecondsOutput(ctx, OutputName.RetentionSeconds),
  };
}

/** The ops CLI's clients and context for the stack: the same credentials chain, timeouts and error wording. */
export function connectRemote(stack: RemoteStack): { readonly clients: OpsClients; readonly ctx: OpsContext } {
  const clients = createOpsClients(stack.target);
  const ctx: OpsContext = { sqs: clients.sqs, dynamodb: clients.dynamodb, outputs: stack.target.outputs, targetLabel: stack.target.label, endpoints: stack.target.endpoints, now: Date.now, functionConfiguration: clients.functionConfiguration };
  return { clients, ctx };
}
