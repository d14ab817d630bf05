import { isFifoQueue } from "@effectively-once/contract";
import { realClock, type Clock } from "../clock/clock";
import { InvocationType, PipeLimits, WorkflowType } from "./constants";
import { PipeConfigError } from "@effectively-once/contract/pipe-filter";
import { compileFilterCriteria } from "@effectively-once/contract/pipe-filter";
import type { RecordFilter } from "@effectively-once/contract/pipe-filter";
import { compileInputTemplate } from "./input-template";
import type { RenderResult, TemplateVariables } from "./input-template";
import type { PipeRunnerOptions, PipeTarget } from "./types";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

/** Options after validation, with defaults filled in. */
export interface PipeConfig {
  name: string;
  queueUrl: string;
  queueArn: string;
  region: string;
  /** The source is a FIFO queue: a group's later records wait for its earlier ones (fifo-hold.ts). */
  fifo: boolean;
  batchSize: number;
  windowMs: number;
  invocationType: InvocationType;
  target: PipeTarget;
  concurrency: number;
  retryVisibilityTimeoutSeconds?: number;
  maximumExecutionMs: number;
  targetErrorRetries: number;
  targetErrorBackoffMs: number;
  throttleBackoffMs: number;
  stopGracePeriodMs: number;
  pollErrorBackoffMs: number;
  clock: Clock;
  filter: RecordFilter;
  /** Undefined when the pipe has no input template. */
  transform?: (record: SqsRecord, vars: TemplateVariables) => RenderResult;
  /** Reserved-variable values that do not change per record. */
  variables: Omit<TemplateVariables, "ingestionTime">;
}

const SQS_ARN = /^arn:[\w-]+:sqs:([\w-]+):(\d{12}|[\w-]+):(.+)$/;

/** Validates {@link PipeRunnerOptions}; every error names the field and what to write instead. */
export function resolveConfig(options: PipeRunnerOptions): PipeConfig {
  const o = options as Partial<PipeRunnerOptions>;
  requireText(o.name, "name", 'a pipe name such as "orders-pipe"');
  if (!o.sqs || typeof (o.sqs as { send?: unknown }).send !== "function") {
    throw new PipeConfigError("sqs: pass an SQSClient from @aws-sdk/client-sqs pointed at the queue's endpoint");
  }
  requireText(o.queueUrl, "queueUrl", "the queue URL exactly as CreateQueue/GetQueueUrl returned it");
  const arn = SQS_ARN.exec(o.queueArn ?? "");
  if (!arn) throw new PipeConfigError(`queueArn: "${o.queueArn}" is not an SQS queue ARN (arn:aws:sqs:<region>:<account>:<queue>)`);
  requireText(o.region, "region", 'the queue\'s region, e.g. "us-east-1"');
  const fifo = isFifoQueue(o.queueArn as string);
  const maxBatch = fifo ? PipeLimits.MAX_FIFO_BATCH_SIZE : PipeLimits.MAX_BATCH_SIZE;
  requireInteger(o.batchSize, "batchSize", 1, maxBatch, fifo ? " for a FIFO queue" : "");
  requireInteger(o.maximumBatchingWindowInSeconds, "maximumBatchingWindowInSeconds", 0, PipeLimits.MAX_BATCHING_WINDOW_SECONDS);
  if (!Object.values(InvocationType).includes(o.invocationType as InvocationType)) {
    throw new PipeConfigError(`invocationType: "${o.invocationType}" is not one of ${Object.values(InvocationType).join(", ")}`);
  }
  const workflowType = o.workflowType ?? WorkflowType.Express;
  if (!Object.values(WorkflowType).includes(workflowType)) {
    throw new PipeConfigError(`workflowType: "${workflowType}" is not one of ${Object.values(WorkflowType).join(", ")}`);
  }
  if (workflowType === WorkflowType.Standard && o.invocationType === InvocationType.RequestResponse) {
    throw new PipeConfigError(
      "invocationType: a STANDARD state machine cannot be invoked with REQUEST_RESPONSE (AWS: Standard workflows must be " +
        "invoked asynchronously); use an EXPRESS state machine or FIRE_AND_FORGET",
    );
  }
  if (typeof o.target !== "function") throw new PipeConfigError("target: pass a function (input, { signal }) => Promise<TargetResult>");
  const concurrency = o.concurrency ?? 2;
  requireInteger(concurrency, "concurrency", 1, 1000);
  if (o.retryVisibilityTimeoutSeconds !== undefined) {
    requireInteger(o.retryVisibilityTimeoutSeconds, "retryVisibilityTimeoutSeconds", 0, 43_200);
  }
  const maximumExecutionMs = o.maximumExecutionMs ?? PipeLimits.MAX_EXECUTION_MS;
  requirePositive(maximumExecutionMs, "maximumExecutionMs");
  const targetErrorRetries = o.targetErrorRetries ?? 3;
  requireInteger(targetErrorRetries, "targetErrorRetries", 0, 100);
  const targetErrorBackoffMs = o.targetErrorBackoffMs ?? 200;
  const throttleBackoffMs = o.throttleBackoffMs ?? 100;
  const stopGracePeriodMs = o.stopGracePeriodMs ?? 30_000;
  const pollErrorBackoffMs = o.pollErrorBackoffMs ?? 1000;
  for (const [value, field] of [
    [targetErrorBackoffMs, "targetErrorBackoffMs"],
    [throttleBackoffMs, "throttleBackoffMs"],
    [stopGracePeriodMs, "stopGracePeriodMs"],
    [pollErrorBackoffMs, "pollErrorBackoffMs"],
  ] as const) {
    if (typeof value !== "number" || !(value >= 0)) throw new PipeConfigError(`${field}: must be a number of milliseconds >= 0`);
  }
  if (o.inputTemplate !== undefined && (typeof o.inputTemplate !== "string" || o.inputTemplate.trim() === "")) {
    throw new PipeConfigError("inputTemplate: must be a non-empty string; omit it to send the records unchanged");
  }
  const [, queueRegion, account] = arn;
  return {
    name: o.name as string,
    queueUrl: o.queueUrl as string,
    queueArn: o.queueArn as string,
    region: o.region as string,
    fifo,
    batchSize: o.batchSize as number,
    windowMs: (o.maximumBatchingWindowInSeconds as number) * 1000,
    invocationType: o.invocationType as InvocationType,
    target: o.target,
    concurrency,
    retryVisibilityTimeoutSeconds: o.retryVisibilityTimeoutSeconds,
    maximumExecutionMs,
    targetErrorRetries,
    targetErrorBackoffMs,
    throttleBackoffMs,
    stopGracePeriodMs,
    pollErrorBackoffMs,
    clock: o.clock ?? realClock,
    filter: compileFilterCriteria(o.filterCriteria),
    transform: o.inputTemplate === undefined ? undefined : compileInputTemplate(o.inputTemplate),
    variables: {
      pipeArn: o.pipeArn ?? `arn:aws:pipes:${queueRegion}:${account}:pipe/${o.name}`,
      pipeName: o.name as string,
      sourceArn: o.queueArn as string,
      targetArn: o.targetArn ?? "",
      enrichmentArn: "",
    },
  };
}

function requireText(value: unknown, field: string, hint: string): void {
  if (typeof value !== "string" || value.trim() === "") throw new PipeConfigError(`${field}: required, ${hint}`);
}

function requireInteger(value: unknown, field: string, min: number, max: number, context = ""): void {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new PipeConfigError(`${field}: ${JSON.stringify(value)} is not an integer between ${min} and ${max}${context}`);
  }
}

function requirePositive(value: unknown, field: string): void {
  if (typeof value !== "number" || !(value > 0)) throw new PipeConfigError(`${field}: must be a number of milliseconds > 0`);
}
