/**
 * The pipe down for a while (disabled in an incident, its target unavailable): its receives return nothing while
 * time runs on, so messages, redriven copies among them, wait in the source queue and come days late. What a poller
 * already holds still reaches the target: a receive inside a batching window answers empty, as a poll of an empty
 * queue does; a poll for a new batch waits for the end. A long poll under way when the outage begins is asked again.
 */
import type { SQSClient } from "@aws-sdk/client-sqs";
import type { VirtualClock } from "../clock/virtual-clock";
import { nap } from "@effectively-once/local-cloud/emulators";

export interface PipeOutage {
  /** The pipe's SQS client, receiving nothing while the pipe is down. */
  readonly client: SQSClient;
  /** Virtual time the current (or last) outage ends. */
  readonly downUntil: () => number;
  /** The pipe is down until `endMs` (an outage under way is only lengthened). */
  begin(endMs: number): void;
}

export function createPipeOutage(clock: VirtualClock, pipeClient: SQSClient, windowMs: number): PipeOutage {
  type Send = (command: unknown, options?: { abortSignal?: AbortSignal }) => Promise<{ Messages?: unknown[] }>;
  const forward = pipeClient.send.bind(pipeClient) as unknown as Send;
  let downUntil = 0;
  // The last receive that returned messages: until a window after it, a poller may be gathering a batch.
  let lastTake = Number.NEGATIVE_INFINITY;
  const polls = new Set<AbortController>();
  const down = (): boolean => clock.now() < downUntil;

  const receive = async (command: { input?: { WaitTimeSeconds?: number } }, options?: { abortSignal?: AbortSignal }) => {
    for (;;) {
      // A nap ends (resolves) on abort: the runner's stop ends the wait as an aborted request would.
      if (options?.abortSignal?.aborted) throw Object.assign(new Error("Request aborted"), { name: "AbortError" });
      if (down() && clock.now() <= lastTake + windowMs) {
        const waitMs = (command.input?.WaitTimeSeconds ?? 0) * 1000;
        if (waitMs > 0) await nap(clock, Math.min(waitMs, downUntil - clock.now()), options?.abortSignal);
        if (down() && !options?.abortSignal?.aborted) return {};
        continue;
      }
      if (down()) {
        await nap(clock, downUntil - clock.now(), options?.abortSignal);
        continue;
      }
      const poll = new AbortController();
      const stop = (): void => poll.abort();
      options?.abortSignal?.addEventListener("abort", stop, { once: true });
      polls.add(poll);
      try {
        const out = await forward(command, { ...options, abortSignal: poll.signal });
        if ((out.Messages?.length ?? 0) > 0) lastTake = clock.now();
        return out;
      } catch (error) {
        // Aborted by the outage's start (not by the runner): ask again once it allows.
        if (options?.abortSignal?.aborted || !down()) throw error;
      } finally {
        polls.delete(poll);
        options?.abortSignal?.removeEventListener("abort", stop);
      }
    }
  };
  const client = {
    send: (command: object, options?: { abortSignal?: AbortSignal }) =>
      command.constructor.name === "ReceiveMessageCommand" ? receive(command as { input?: { WaitTimeSeconds?: number } }, options) : forward(command, options),
  } as unknown as SQSClient;
  return {
    client,
    downUntil: () => downUntil,
    begin(endMs) {
      downUntil = Math.max(downUntil, endMs);
      for (const poll of polls) poll.abort();
    },
  };
}
