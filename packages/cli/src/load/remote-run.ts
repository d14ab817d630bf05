import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { setTimeout as sleep } from "node:timers/promises";
import { awsCall } from "@effectively-once/ops";
import type { OpsClients } from "@effectively-once/ops";
import type { OpsContext } from "@effectively-once/ops";
import type { LoadKind, LoadMessage } from "@effectively-once/local-cloud/harness";
import { publish } from "@effectively-once/local-cloud/harness";
import { checkRemote, type RemoteChecks } from "./remote-checks";
import type { RemoteOptions } from "./remote-options";
import type { RemoteStack } from "./remote-target";

/** Everything a run against a deployed stack measured and checked; the report is built from it. */
export interface RemoteResult {
  readonly options: RemoteOptions;
  readonly target: string;
  readonly mix: Record<LoadKind, number>;
  readonly checks: RemoteChecks;
  /** False when the queue still held messages at the settle deadline. */
  readonly settled: boolean;
  /** Check rounds made (more than one when a message had no fate at first). */
  readonly rounds: number;
  readonly timings: { readonly startedAt: number; readonly publishMs: number; readonly settleMs: number; readonly runMs: number };
}

const DEPTH = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed"] as const;

async function depthOf(sqs: SQSClient, stack: RemoteStack): Promise<number> {
  const where = { service: "SQS" as const, endpoint: stack.target.endpoints.sqs, resource: `the queue ${stack.queueUrl}` };
  const { Attributes = {} } = await awsCall("reading the queue's depth", where, () => sqs.send(new GetQueueAttributesCommand({ QueueUrl: stack.queueUrl, AttributeNames: [...DEPTH] })));
  return DEPTH.reduce((sum, name) => sum + Number(Attributes[name] ?? 0), 0);
}

/**
 * Waits until the queue reads empty (visible, in flight and delayed) for `quietSeconds` on end, or the deadline.
 * The counts are approximate on AWS and can read 0 for a moment while messages are in flight, hence the window.
 */
async function waitForQuiet(sqs: SQSClient, stack: RemoteStack, options: RemoteOptions, deadline: number): Promise<boolean> {
  let emptySince: number | undefined;
  for (;;) {
    const now = Date.now();
    if ((await depthOf(sqs, stack)) === 0) {
      emptySince ??= now;
      if (now - emptySince >= options.quietSeconds * 1000) return true;
    } else emptySince = undefined;
    if (Date.now() >= deadline) return false;
    await sleep(Math.min(options.pollSeconds * 1000, Math.max(0, deadline - Date.now())));
  }
}

export interface RemoteIo {
  readonly note?: (line: string) => void;
}

/**
 * Publishes the stream to the deployed queue at the given rate (with back-pressure), waits until the queue has been
 * empty for the quiet window, then checks every key of the run against the stack's stores. A round with a message
 * without a fate is repeated (after another quiet window) up to `checkRounds`: AWS's counts and a DLQ peek can lag.
 */
export async function runRemote(options: RemoteOptions, stack: RemoteStack, connection: { readonly clients: OpsClients; readonly ctx: OpsContext }, messages: readonly LoadMessage[], mix: Record<LoadKind, number>, io: RemoteIo = {}): Promise<RemoteResult> {
  const note = io.note ?? (() => undefined);
  const { clients, ctx } = connection;
  const started = Date.now();
  let lastNoted = 0;
  const sent = await publish({
    sqs: clients.sqs,
    queueUrl: stack.queueUrl,
    messages,
    maxBacklog: options.maxBacklog,
    ratePerSecond: options.rate,
    onSent: (n) => {
      if (n === messages.length || Date.now() - lastNoted > 5000) {
        lastNoted = Date.now();
        note(`published ${n} / ${messages.length}`);
      }
    },
  });
  const publishMs = Date.now() - started;
  const deadline = Date.now() + options.settleTimeoutSeconds * 1000;
  note(`published in ${(publishMs / 1000).toFixed(1)} s; waiting for the queue to stay empty for ${options.quietSeconds} s`);
  let settled = await waitForQuiet(clients.sqs, stack, options, deadline);
  const settleMs = Date.now() - started;
  let rounds = 0;
  let checks: RemoteChecks;
  for (;;) {
    rounds += 1;
    note(`check round ${rounds}: ${settled ? "the queue is empty" : "the queue is NOT empty (settle timeout)"}; reading the DLQ and every key`);
    checks = await checkRemote(ctx, clients.dynamodbClient, stack, sent);
    if (checks.verification.lost.length === 0 || rounds >= options.checkRounds || Date.now() >= deadline) break;
    note(`${checks.verification.lost.length} message(s) without a fate yet: waiting for another quiet window`);
    settled = await waitForQuiet(clients.sqs, stack, options, deadline);
  }
  return { options, target: stack.target.label, mix, checks, settled, rounds, timings: { startedAt: started, publishMs, settleMs, runMs: Date.now() - started } };
}
