/**
 * A stepped-rate load on a running local cloud: each step sends single messages at one offered rate for a fixed
 * time, and the step's throughput is the messages that reached their fate inside that window. Single sends, not
 * batches of 10: at 5 msg/s a batch of 10 every 2 s would be a burst, not a rate.
 */
import { SendMessageCommand } from "@aws-sdk/client-sqs";
import { setTimeout as sleep } from "node:timers/promises";
import type { CloudEvent, LocalCloud } from "@effectively-once/local-cloud";
import type { LoadStep } from "../../../src/capacity/knee";
import type { LoadMessage } from "@effectively-once/local-cloud/harness";
import type { LoadSent } from "@effectively-once/local-cloud/harness";

export interface MeasuredStep extends LoadStep {
  readonly sent: number;
  readonly windowMs: number;
}

/** One step as sent: its window is measured once the run is over (`LoadRecorder.throughput`). */
export interface SentStep {
  readonly offered: number;
  readonly sent: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** What the pipe and the state machine reported while the load ran. */
export class LoadRecorder {
  /** Epoch ms of every final outcome (processed, duplicate, quarantined); a retry is not a fate. */
  readonly fates: number[] = [];
  /** Wall time of each execution that ran to SUCCEEDED (a throttled start runs none). */
  readonly executionMs: number[] = [];
  /** Per batch never throttled: what the pipe spent besides the execution (the delete of the acknowledged record). */
  readonly overheadMs: number[] = [];
  private readonly executionOf = new Map<string, number>();
  // A throttled batch's time around its execution is mostly backoff, not the pipe's own work.
  private readonly throttled = new Set<string>();
  private readonly unsubscribe: () => void;

  constructor(cloud: LocalCloud) {
    this.unsubscribe = cloud.subscribe((event: CloudEvent) => this.record(event));
  }

  /** Marks where the next figures start (the warm-up's are left out of the final ones). */
  mark(): { readonly executions: number; readonly overheads: number } {
    return { executions: this.executionMs.length, overheads: this.overheadMs.length };
  }

  stop(): void {
    this.unsubscribe();
  }

  /**
   * The step's throughput: fates in its window shifted by `lagMs` (about one message's time through the pipeline),
   * so a step that keeps up counts exactly what it sent, not what the previous step left or the next one takes.
   */
  throughput(step: SentStep, lagMs: number): MeasuredStep {
    const from = step.startedAt + lagMs;
    const to = step.endedAt + lagMs;
    const windowMs = to - from;
    const done = this.fates.filter((at) => at >= from && at < to).length;
    return { offered: step.offered, sent: step.sent, throughput: done / (windowMs / 1000), windowMs };
  }

  private record(event: CloudEvent): void {
    if (event.type === "record-outcome") {
      if (event.outcome !== "retry") this.fates.push(event.at);
    } else if (event.type === "execution-finished" && event.status === "SUCCEEDED") {
      this.executionMs.push(event.durationMs);
      this.executionOf.set(event.batchId, event.durationMs);
    } else if (event.type === "target-error" && event.throttled) {
      this.throttled.add(event.batchId);
    } else if (event.type === "batch-completed") {
      const execution = this.executionOf.get(event.batchId);
      this.executionOf.delete(event.batchId);
      if (execution !== undefined && !this.throttled.delete(event.batchId)) this.overheadMs.push(Math.max(0, event.durationMs - execution));
    }
  }
}

/** Sends `messages` at `rate` msg/s over `seconds` and waits out the window. */
export async function runStep(cloud: LocalCloud, messages: readonly LoadMessage[], rate: number, seconds: number, sent: LoadSent[]): Promise<SentStep> {
  const queueUrl = cloud.outputs.queue_url as string;
  const count = Math.round(rate * seconds);
  if (messages.length < count) throw new RangeError(`the step needs ${count} messages, ${messages.length} are left`);
  const startedAt = Date.now();
  const sends: Promise<void>[] = [];
  for (let i = 0; i < count; i += 1) {
    const wait = startedAt + (i / rate) * 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    const message = messages[i];
    const sentAt = Date.now();
    sends.push(
      cloud.clients.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: message.body })).then((out) => {
        sent.push({ messageId: out.MessageId!, body: message.body, effectKey: message.effectKey, fingerprint: message.fingerprint, kind: message.kind, sentAt });
      }),
    );
  }
  await Promise.all(sends);
  const rest = startedAt + seconds * 1000 - Date.now();
  if (rest > 0) await sleep(rest);
  return { offered: count / seconds, sent: count, startedAt, endedAt: Date.now() };
}

/** Little's law holds for means: a slow tail holds a slot as long as it lasts, which a median would hide. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("no values to average");
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("no values to take the median of");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
