import { DEFAULT_ASSUMPTIONS } from "../cost/assumptions";
import { compare } from "../cost/compare";
import { loadPriceBook, unitPrice, type PriceBook } from "../cost/prices";
import { DEFAULT_SCENARIO } from "../cost/scenario";
import type { DeployedConfig } from "../cost/types";
import { formatTable } from "@effectively-once/local-cloud/harness";
import { LoadKind, type LoadMessage } from "@effectively-once/local-cloud/harness";
import type { RemoteOptions } from "./remote-options";
import type { RemoteStack } from "./remote-target";

/** One kind of AWS call the run makes: what a dry run lists and the estimate prices. */
export interface PlannedCall {
  readonly service: "SQS" | "DynamoDB";
  readonly action: string;
  readonly resource: string;
  /** Calls in a run whose checks pass in one round. */
  readonly count: number;
  /** How far the count can grow (polls while settling, further check rounds). */
  readonly upTo?: string;
  readonly why: string;
}

export interface RunEstimate {
  /** The pipeline's own cost and the side effect's for this stream (the cost model, packages/cli/src/cost/). */
  readonly pipelineUsd: number;
  readonly sideEffectUsd: number;
  /** The load tool's own calls: sends, polls, the DLQ scan and the per-key reads. */
  readonly toolUsd: number;
  readonly totalUsd: number;
  readonly perMillionUsd: number;
  readonly batchSize: number;
  readonly configSource: string;
  readonly pricesTakenOn: string;
}

/** What the stream is made of, and how many keys the checks read. */
function streamFacts(messages: readonly LoadMessage[]): { readonly keys: number; readonly expectedDlq: number; readonly duplicates: number; readonly quarantined: number } {
  const keys = new Set(messages.flatMap((m) => (m.effectKey ? [m.effectKey] : []))).size;
  const of = (...kinds: LoadKind[]) => messages.filter((m) => kinds.includes(m.kind)).length;
  const quarantined = of(LoadKind.InvalidJson, LoadKind.MissingField, LoadKind.Conflict, LoadKind.Rejected);
  return { keys, expectedDlq: quarantined, duplicates: of(LoadKind.ConcurrentDuplicate, LoadKind.LateDuplicate), quarantined };
}

/** Every AWS call of a run, per resource, with counts from the stream itself (nothing is guessed but the polls). */
export function planCalls(options: RemoteOptions, stack: RemoteStack, messages: readonly LoadMessage[]): PlannedCall[] {
  const n = messages.length;
  const { keys, expectedDlq } = streamFacts(messages);
  const sends = Math.ceil(n / 10);
  const quietPolls = Math.ceil(options.quietSeconds / options.pollSeconds) + 1;
  const maxPolls = Math.ceil(options.settleTimeoutSeconds / options.pollSeconds) + quietPolls;
  const receives = Math.ceil(expectedDlq / 10) + 1;
  const rounds = options.checkRounds;
  // A check round repeats (after another quiet window) while a message has no fate yet: AWS's counts can lag.
  const perRound = (each: number) => (rounds > 1 ? `×${each * rounds} (${rounds} check rounds)` : undefined);
  const calls: PlannedCall[] = [
    { service: "SQS", action: "SendMessageBatch", resource: stack.queueUrl, count: sends, why: `${n} messages, 10 per call, at ${options.rate} msg/s (about ${Math.ceil(n / options.rate)} s)` },
    {
      service: "SQS",
      action: "GetQueueAttributes",
      resource: stack.queueUrl,
      count: quietPolls,
      upTo: `×${sends + maxPolls} (settle timeout ${options.settleTimeoutSeconds} s)`,
      why: `depth: back-pressure at ${options.maxBacklog} queued, then every ${options.pollSeconds} s until empty for ${options.quietSeconds} s`,
    },
    { service: "SQS", action: "GetQueueAttributes", resource: stack.dlqUrl, count: 1, upTo: perRound(1), why: "the DLQ's depth" },
    { service: "SQS", action: "ReceiveMessage", resource: stack.dlqUrl, count: receives, upTo: perRound(receives), why: `peek, held 30 s, nothing deleted (${expectedDlq} of this run expected; +1 per 10 already there)` },
    { service: "SQS", action: "ChangeMessageVisibilityBatch", resource: stack.dlqUrl, count: Math.ceil(expectedDlq / 10), upTo: perRound(Math.ceil(expectedDlq / 10)), why: "puts every peeked message back" },
  ];
  if (stack.effectsTable) calls.push({ service: "DynamoDB", action: "Query", resource: stack.effectsTable, count: keys, upTo: perRound(keys), why: "pk = each key, consistent: EFFECT and CALL items" });
  calls.push(
    { service: "DynamoDB", action: "GetItem", resource: stack.ledgerTable, count: keys, upTo: perRound(keys), why: "each key's claim, consistent: status, expiresAt" },
    { service: "DynamoDB", action: "GetItem", resource: stack.idempotencyTable, count: keys, upTo: perRound(keys), why: "each key's Powertools record, consistent" },
  );
  return calls;
}

/** The cost model's price of the stream on the stack's settings, plus the tool's own calls (one check round). */
export function estimateRun(config: DeployedConfig, messages: readonly LoadMessage[], calls: readonly PlannedCall[], book: PriceBook = loadPriceBook()): RunEstimate {
  const n = messages.length;
  const facts = streamFacts(messages);
  // Invalid bodies are priced as quarantines (claim, inspect, DLQ send): a little above what they cost.
  const scenario = { messages: n, duplicateRatio: facts.duplicates / n, quarantineRatio: facts.quarantined / n, retryRatio: DEFAULT_SCENARIO.retryRatio, batchSize: config.pipe.batchSize };
  const { design } = compare(config, book, DEFAULT_ASSUMPTIONS, scenario);
  // The producer's sends are already a line of the cost model; the tool adds its polls, the DLQ scan and the reads.
  const toolCalls = calls.filter((c) => c.action !== "SendMessageBatch");
  const sqs = toolCalls.filter((c) => c.service === "SQS").reduce((sum, c) => sum + c.count, 0);
  const reads = toolCalls.filter((c) => c.service === "DynamoDB").reduce((sum, c) => sum + c.count, 0);
  const toolUsd = sqs * unitPrice(book, "sqs.request") + reads * unitPrice(book, "dynamodb.read");
  const totalUsd = design.totalUsd + toolUsd;
  return {
    pipelineUsd: design.pipelineUsd,
    sideEffectUsd: design.sideEffectUsd,
    toolUsd,
    totalUsd,
    perMillionUsd: (design.totalUsd * 1e6) / n,
    batchSize: config.pipe.batchSize,
    configSource: config.source,
    pricesTakenOn: book.takenOn,
  };
}

const usd = (value: number) => `$${value < 0.01 ? value.toFixed(6) : value.toFixed(4)}`;

/** The lines printed before anything is sent (and, with --dry-run, instead of sending). */
export function formatPlan(options: RemoteOptions, stack: RemoteStack, messages: readonly LoadMessage[], calls: readonly PlannedCall[], estimate: RunEstimate): string {
  const facts = streamFacts(messages);
  const endpoint = (e: RemoteStack["endpoints"]["sqs"]) => (e.url ? `${e.url} (${e.from})` : e.from);
  const lines = [
    `target: ${stack.target.label}, region ${stack.target.region}`,
    `  SQS endpoint: ${endpoint(stack.endpoints.sqs)}; DynamoDB endpoint: ${endpoint(stack.endpoints.dynamodb)}; credentials: the AWS SDK's default chain`,
    `stream: ${messages.length} messages (cap --max-messages ${options.maxMessages}), seed "${options.seed}", run id "${options.runId}": ${facts.keys} keys, ${facts.duplicates} duplicates, ${facts.quarantined} to be quarantined`,
    `estimated cost: ${usd(estimate.totalUsd)} = pipeline ${usd(estimate.pipelineUsd)} + side effect ${usd(estimate.sideEffectUsd)} + this tool's own calls ${usd(estimate.toolUsd)}`,
    `  (${usd(estimate.perMillionUsd)} per million messages at batch size ${estimate.batchSize}; stack settings: ${estimate.configSource}; us-east-1 list prices taken ${estimate.pricesTakenOn}; fixed monthly costs not included)`,
    "",
    "AWS calls:",
    formatTable(
      calls.map((c) => [c.service, c.action, `×${c.count}`, c.upTo ?? "", c.resource, c.why]),
      ["service", "action", "count", "at most", "resource", "why"],
      ["left", "left", "right", "left", "left", "left"],
    ),
  ];
  return lines.join("\n");
}
