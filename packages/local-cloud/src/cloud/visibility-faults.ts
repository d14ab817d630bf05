import { ChangeMessageVisibilityCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { createRng } from "../faults";
import type { SqsSender } from "../pipes";

/**
 * Makes received messages visible again while their batch still runs, as if the visibility timeout had been too
 * short: another poller then receives the same message and processes it concurrently. The guarantees must hold.
 */
export interface EarlyVisibilityExpiry {
  /** The seed of the draws: the same seed expires the same receives. */
  readonly seed: string | number;
  /** Chance per received message (default 1). */
  readonly probability?: number;
  /** At most this many messages (default unlimited). */
  readonly times?: number;
  /** Delay after the receive before the message reappears (default 0 ms). */
  readonly afterMs?: number;
  /** Only messages whose body contains this text (default all). */
  readonly bodyContains?: string;
}

interface VisibilityFaultCounter {
  expired: number;
}

/** An SQS client for a pipe that expires the visibility of some received messages early. */
export function withEarlyVisibilityExpiry<C extends SqsSender>(sqs: C, fault: EarlyVisibilityExpiry, counter: VisibilityFaultCounter): C {
  const rng = createRng(`${fault.seed}:visibility`);
  const probability = fault.probability ?? 1;
  const send = async (command: Parameters<SqsSender["send"]>[0], ...rest: unknown[]) => {
    const result = await (sqs.send as (...args: unknown[]) => Promise<unknown>)(command, ...rest);
    if (!(command instanceof ReceiveMessageCommand)) return result;
    const queueUrl = command.input.QueueUrl;
    for (const message of (result as { Messages?: { Body?: string; ReceiptHandle?: string }[] }).Messages ?? []) {
      if (fault.times !== undefined && counter.expired >= fault.times) break;
      if (fault.bodyContains !== undefined && !message.Body?.includes(fault.bodyContains)) continue;
      if (probability < 1 && rng.next() >= probability) continue;
      counter.expired += 1;
      const expire = () =>
        sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle, VisibilityTimeout: 0 })).catch(() => undefined);
      if (fault.afterMs) setTimeout(() => void expire(), fault.afterMs).unref();
      else await expire();
    }
    return result;
  };
  return new Proxy(sqs, { get: (target, prop, receiver) => (prop === "send" ? send : Reflect.get(target, prop, receiver)) });
}
