/**
 * SQS for the simulation: standard queues with AWS's delivery rules under the virtual clock. Visibility timeout
 * and receipt handles, receive counts, the redrive policy (a receive past `maxReceiveCount` moves the message to
 * the DLQ instead), retention counted from the ORIGINAL enqueue time (a standard queue's DLQ keeps it), SendMessage
 * limits (262,144 bytes of body + attributes, SQS's character set, the message-attribute rules). It answers the
 * commands the pipes runner and the operator tools send, by command class name, as the SDK's `send` does, each client
 * as one principal: a message carries its sender's SenderId, which no attribute can forge. SQS's own operator actions
 * (sqs/native-actions.ts): a DLQ's message-move task and a purge, each refused by an explicit Deny of the queue's policy;
 * SetQueueAttributes of the redrive attributes, with RedriveAllowPolicy enforced (sqs/redrive-allow.ts).
 */
import { createHash } from "node:crypto";
import type { Message, MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import type { VirtualClock } from "../clock/virtual-clock";
import { attributeBytes, attributeProblem, fromSdkAttributes, md5OfAttributes, SQS_INVALID_CHARACTER } from "./attributes";
import { nap } from "@effectively-once/local-cloud/emulators";
import { deadLettersAtReceive, deadLetterStamp, deleteDecision, retentionEnd, retentionExpired, visibilityDecision, type SqsRuleProblem } from "@effectively-once/local-cloud/sqs-rules";
import { purgeQueue, startMoveTask, type NativeActionHost } from "./native-actions";
import { redriveAttributes, setRedriveAttributes } from "./redrive-allow";
import { SqsError, type SimQueueConfig, type SqsEvent, type StoredMessage } from "./model";
import { admitFifoSend, fifoReceivable, rememberFifoSend, type DeduplicationMemory, type FifoIds } from "./fifo";

export type { SimQueueConfig, SqsEvent, StoredMessage };

const fail = (problem: SqsRuleProblem): SqsError => new SqsError(problem.code, problem.message);

/** How long a message's receives kept it hidden up to `until` (the visibility its latest receive set may have been cut short). */
function hidden(m: StoredMessage, until: number): number {
  const current = m.receivedAt === undefined ? 0 : Math.max(0, Math.min(m.invisibleUntil, until) - m.receivedAt);
  return (m.hiddenMs ?? 0) + current;
}

export class SimSqs {
  readonly events: SqsEvent[] = [];
  private readonly queues = new Map<string, { config: SimQueueConfig; messages: StoredMessage[]; deduplication?: DeduplicationMemory }>();
  /** Arrival order of every message stored (a FIFO queue delivers a group in it). */
  private arrivals = 0;
  private sequence = 0;
  /** Every message ever stored, by id (fates are read from it after messages left their queues). */
  private readonly all = new Map<string, StoredMessage>();
  /** Long polls waiting for a send. */
  private waiters = new Set<() => void>();
  /** Told of every event as it happens (the simulation orders its facts by it). */
  onEvent?: (event: SqsEvent) => void;
  /** Called before a message becomes visible again; the scheduler uses it to expire visibility early. */
  onReceive?: (queue: string, messages: readonly StoredMessage[]) => void;

  constructor(private readonly clock: VirtualClock) {}

  private record(event: SqsEvent): void {
    this.events.push(event);
    this.onEvent?.(event);
  }

  addQueue(config: SimQueueConfig): void {
    this.queues.set(config.url, { config, messages: [] });
  }

  /** A client whose sends carry `senderId` (the caller's principal). */
  clientAs(senderId: string): SQSClient {
    return {
      send: (command: { input: Record<string, unknown> }, options?: { abortSignal?: AbortSignal }) => this.send(command, senderId, options?.abortSignal),
    } as unknown as SQSClient;
  }

  ever(id: string): StoredMessage | undefined {
    return this.all.get(id);
  }

  messages(url: string): readonly StoredMessage[] {
    return this.queue(url).messages;
  }

  /** The producer's SendMessage (or an operator's), with SQS's checks; on a FIFO queue with its group and deduplication id. */
  sendMessage(url: string, body: string, senderId: string, attributes?: Record<string, MessageAttributeValue>, fifo: FifoIds = {}): string {
    const q = this.queue(url);
    if (body.length === 0) throw new SqsError("MissingParameter", "The request must contain the parameter MessageBody.");
    const pairs = fromSdkAttributes(attributes);
    const problem = attributeProblem(pairs);
    if (problem) throw new SqsError("InvalidParameterValue", problem);
    const bytes = Buffer.byteLength(body) + attributeBytes(pairs);
    if (bytes > q.config.maxMessageBytes) {
      throw new SqsError("InvalidParameterValue", `One or more parameters are invalid. Reason: Message must be shorter than ${q.config.maxMessageBytes} bytes.`);
    }
    if (SQS_INVALID_CHARACTER.test(body)) throw new SqsError("InvalidMessageContents", "Invalid characters found.");
    const admitted = q.config.fifo ? admitFifoSend(q.config, (q.deduplication ??= new Map()), body, fifo, this.clock.now()) : undefined;
    const id = `m${++this.sequence}`;
    if (admitted?.duplicateOf !== undefined) {
      // Accepted, never delivered: SQS answers as for any send.
      this.record({ type: "deduplicated", queue: url, id, of: admitted.duplicateOf });
      return id;
    }
    const fifoFields = admitted ? { groupId: admitted.groupId, deduplicationId: admitted.deduplicationId } : {};
    const stored: StoredMessage = { id, body, attributes: pairs.length > 0 ? Object.fromEntries(Object.entries(attributes ?? {})) : undefined, senderId, sentAt: this.clock.now(), receiveCount: 0, invisibleUntil: 0, arrival: ++this.arrivals, ...fifoFields };
    if (admitted && q.deduplication) rememberFifoSend(q.config, q.deduplication, stored, this.clock.now());
    q.messages.push(stored);
    this.all.set(id, stored);
    this.record({ type: "sent", queue: url, id });
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
    return id;
  }

  /** Makes an in-flight message visible again at `atMs` (a fault: its worker stalled past the visibility timeout). */
  expireVisibility(url: string, id: string, atMs: number): boolean {
    const m = this.queue(url).messages.find((x) => x.id === id && x.invisibleUntil > atMs);
    if (m) m.invisibleUntil = atMs;
    return m !== undefined;
  }

  private queue(url: string) {
    const q = this.queues.get(url);
    if (!q) throw new SqsError("QueueDoesNotExist", `The specified queue does not exist: ${url}`);
    return q;
  }

  /** Retention (SQS's rule, sqs-rules): drops what outlived it, counted from the original enqueue time (a FIFO DLQ's: the move). */
  private expire(url: string): void {
    const q = this.queue(url);
    const now = this.clock.now();
    const from = (m: StoredMessage) => m.retainedFrom ?? m.sentAt;
    const expired = (m: StoredMessage) => retentionExpired(from(m), q.config.retentionSeconds, now);
    for (const m of q.messages.filter(expired)) {
      const at = retentionEnd(from(m), q.config.retentionSeconds);
      const since = Math.max(m.sentAt, m.deadLetteredAt ?? m.sentAt);
      this.record({ type: "expired", queue: url, id: m.id, at, waitedMs: at - since - hidden(m, at), ...(m.deadLetteredAt === undefined ? {} : { deadLetteredAt: m.deadLetteredAt }) });
    }
    q.messages = q.messages.filter((m) => !expired(m));
  }

  /** Applies every queue's retention now (the end of a run: what AWS would have deleted by then is gone). */
  expireAll(): void {
    for (const url of this.queues.keys()) this.expire(url);
  }

  private async send(command: { input: Record<string, unknown> }, senderId: string, signal?: AbortSignal): Promise<unknown> {
    const name = command.constructor.name.replace(/Command$/, "");
    const input = command.input as Record<string, never>;
    switch (name) {
      case "SendMessage":
        return { MessageId: this.sendMessage(input.QueueUrl, input.MessageBody, senderId, input.MessageAttributes, { groupId: input.MessageGroupId, deduplicationId: input.MessageDeduplicationId }) };
      case "ReceiveMessage":
        return this.receive(input as never, signal);
      case "DeleteMessage":
        this.remove(input.QueueUrl, input.ReceiptHandle);
        return {};
      case "DeleteMessageBatch":
        return this.batch(input.QueueUrl, input.Entries, (e) => this.remove(input.QueueUrl, e.ReceiptHandle));
      case "ChangeMessageVisibility":
        this.changeVisibility(input.QueueUrl, input.ReceiptHandle, input.VisibilityTimeout);
        return {};
      case "ChangeMessageVisibilityBatch":
        return this.batch(input.QueueUrl, input.Entries, (e) => this.changeVisibility(input.QueueUrl, e.ReceiptHandle, e.VisibilityTimeout ?? 0));
      case "GetQueueAttributes": {
        this.expire(input.QueueUrl);
        const { config, messages: all } = this.queue(input.QueueUrl);
        const visible = all.filter((m) => m.invisibleUntil <= this.clock.now()).length;
        const policy = config.policy === undefined ? {} : { Policy: config.policy };
        return {
          Attributes: { ApproximateNumberOfMessages: String(visible), ApproximateNumberOfMessagesNotVisible: String(all.length - visible), ApproximateNumberOfMessagesDelayed: "0", MaximumMessageSize: String(config.maxMessageBytes), QueueArn: config.arn, ...policy, ...redriveAttributes(this.queues, config) },
        };
      }
      case "SetQueueAttributes":
        setRedriveAttributes(this.queues, input.QueueUrl, input.Attributes);
        return {};
      case "StartMessageMoveTask":
        return startMoveTask(this.host(), input.SourceArn, senderId, input.DestinationArn);
      case "PurgeQueue":
        purgeQueue(this.host(), input.QueueUrl, senderId);
        return {};
      default:
        throw new SqsError("InvalidAction", `simulation: ${name} is not served`);
    }
  }

  /** What SQS's own operator actions reach (sqs/native-actions.ts). */
  private host(): NativeActionHost {
    return {
      clock: this.clock,
      queues: this.queues,
      record: (event) => this.record(event),
      store: (message) => {
        this.all.set(message.id, message);
      },
      nextId: () => `m${++this.sequence}`,
      nextArrival: () => ++this.arrivals,
      wake: () => {
        const waiters = this.waiters;
        this.waiters = new Set();
        for (const wake of waiters) wake();
      },
    };
  }

  private batch(url: string, entries: { Id: string; ReceiptHandle: string; VisibilityTimeout?: number }[], one: (e: { ReceiptHandle: string; VisibilityTimeout?: number }) => void) {
    this.queue(url);
    const Successful: { Id: string }[] = [];
    const Failed: { Id: string; Code: string; SenderFault: boolean; Message: string }[] = [];
    for (const e of entries ?? []) {
      try {
        one(e);
        Successful.push({ Id: e.Id });
      } catch (error) {
        if (!(error instanceof SqsError)) throw error;
        Failed.push({ Id: e.Id, Code: error.name, SenderFault: true, Message: error.message });
      }
    }
    return Failed.length > 0 ? { Successful, Failed } : { Successful };
  }

  /**
   * Whether this model issued the handle, and the message of this queue it names (undefined once it left the queue).
   * What a call does with it is SQS's rule (sqs-rules: receipt handles), one copy for both SQS implementations.
   */
  private lookUp(url: string, handle: unknown): { issued: boolean; message?: StoredMessage } {
    const id = /^(m\d+)#\d+#\d+$/.exec(String(handle))?.[1];
    const issued = typeof handle === "string" && id !== undefined && this.all.has(id);
    return { issued, message: issued ? this.queue(url).messages.find((m) => m.id === id) : undefined };
  }

  private remove(url: string, handle: string): void {
    const q = this.queue(url);
    const { issued, message } = this.lookUp(url, handle);
    const decision = deleteDecision({ handle, issued, latestHandle: message?.receiptHandle });
    if (decision.problem) throw fail(decision.problem);
    if (!decision.deletes || !message) return;
    this.record({ type: "deleted", queue: url, id: message.id });
    q.messages.splice(q.messages.indexOf(message), 1);
  }

  private changeVisibility(url: string, handle: string, seconds: number): void {
    const { issued, message } = this.lookUp(url, handle);
    const inFlight = message !== undefined && message.invisibleUntil > this.clock.now();
    const decision = visibilityDecision({ handle, seconds, issued, present: message !== undefined, inFlight });
    if (decision.problem) throw fail(decision.problem);
    if (decision.changes && message) message.invisibleUntil = this.clock.now() + seconds * 1000;
  }

  private async receive(input: { QueueUrl: string; MaxNumberOfMessages?: number; VisibilityTimeout?: number; WaitTimeSeconds?: number }, signal?: AbortSignal): Promise<{ Messages?: Message[] }> {
    let taken = this.take(input);
    if (taken.length === 0 && (input.WaitTimeSeconds ?? 0) > 0) {
      // A long poll returns when a message arrives or the wait ends (visibility expiry is seen at the next poll).
      const woken = new AbortController();
      const wake = (): void => woken.abort();
      this.waiters.add(wake);
      signal?.addEventListener("abort", wake, { once: true });
      await nap(this.clock, (input.WaitTimeSeconds ?? 0) * 1000, woken.signal);
      this.waiters.delete(wake);
      signal?.removeEventListener("abort", wake);
      if (signal?.aborted) throw Object.assign(new Error("Request aborted"), { name: "AbortError" });
      taken = this.take(input);
    }
    return taken.length > 0 ? { Messages: taken } : {};
  }

  private take(input: { QueueUrl: string; MaxNumberOfMessages?: number; VisibilityTimeout?: number }): Message[] {
    this.expire(input.QueueUrl);
    const q = this.queue(input.QueueUrl);
    const now = this.clock.now();
    const out: Message[] = [];
    for (const m of q.config.fifo ? fifoReceivable(q.messages, now) : [...q.messages]) {
      if (out.length >= (input.MaxNumberOfMessages ?? 1)) break;
      if (m.invisibleUntil > now) continue;
      const redrive = q.config.redrive;
      if (redrive && deadLettersAtReceive(m.receiveCount, redrive.maxReceiveCount)) {
        // SQS's redrive (sqs-rules): the message keeps its receive count and, in a standard DLQ, its enqueue time.
        q.messages.splice(q.messages.indexOf(m), 1);
        const dlq = this.queue(redrive.deadLetterUrl);
        const stamp = deadLetterStamp(q.config.arn, dlq.config.fifo !== undefined, now);
        const moved = { ...m, invisibleUntil: 0, receiptHandle: undefined, receivedAt: undefined, hiddenMs: 0, deadLetteredAt: stamp.movedAt, deadLetterQueueSourceArn: stamp.deadLetterQueueSourceArn, arrival: ++this.arrivals, ...(stamp.retainedFrom === undefined ? {} : { retainedFrom: stamp.retainedFrom }) };
        dlq.messages.push(moved);
        this.record({ type: "dead-lettered", queue: redrive.deadLetterUrl, id: m.id });
        continue;
      }
      m.hiddenMs = hidden(m, now);
      m.receivedAt = now;
      m.receiveCount++;
      m.firstReceivedAt ??= now;
      m.invisibleUntil = now + (input.VisibilityTimeout ?? q.config.visibilityTimeoutSeconds) * 1000;
      m.receiptHandle = `${m.id}#${m.receiveCount}#${now}`;
      out.push({
        MessageId: m.id,
        ReceiptHandle: m.receiptHandle,
        Body: m.body,
        MD5OfBody: createHash("md5").update(m.body).digest("hex"),
        Attributes: {
          SenderId: m.senderId,
          ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt),
          ApproximateReceiveCount: String(m.receiveCount),
          SentTimestamp: String(m.sentAt), ...(m.deadLetterQueueSourceArn === undefined ? {} : { DeadLetterQueueSourceArn: m.deadLetterQueueSourceArn }),
          ...(m.groupId === undefined ? {} : { MessageGroupId: m.groupId, MessageDeduplicationId: String(m.deduplicationId), SequenceNumber: String(m.arrival).padStart(20, "0") }),
        },
        ...(m.attributes ? { MD5OfMessageAttributes: md5OfAttributes(m.attributes), MessageAttributes: m.attributes } : {}),
      });
    }
    this.onReceive?.(input.QueueUrl, q.messages.filter((m) => out.some((o) => o.MessageId === m.id)));
    return out;
  }
}
