import { createHash } from "node:crypto";
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from "@aws-sdk/client-sqs";
import type { Message, MessageAttributeValue, SQSClient } from "@aws-sdk/client-sqs";
import type { FakeClock } from "./fake-clock";

/**
 * A small in-memory stand-in for one SQS standard queue, used ONLY by the Pipes runner's unit tests so they can
 * drive time with a fake clock. It answers the four calls the runner makes (ReceiveMessage with long polling,
 * DeleteMessageBatch, ChangeMessageVisibilityBatch, GetQueueAttributes) with SQS's visibility-timeout and
 * receipt-handle rules. The real wire protocol is exercised against fauxqs in the pipes fauxqs test.
 */
export class InMemorySqs {
  readonly calls: { command: string; input: Record<string, unknown> }[] = [];
  /** Message ids whose next delete entry fails (consumed on use). */
  readonly failNextDeleteOf = new Set<string>();
  /** When set, every ReceiveMessage throws this error. */
  receiveError: Error | undefined;
  private readonly messages: StoredMessage[] = [];
  private waiters = new Set<() => void>();
  private sequence = 0;

  constructor(
    private readonly clock: FakeClock,
    private readonly visibilityTimeoutSeconds = 30,
  ) {}

  /** The client to hand to the runner. */
  get client(): SQSClient {
    return { send: (command: unknown, options?: { abortSignal?: AbortSignal }) => this.send(command, options) } as unknown as SQSClient;
  }

  /** Test helper: SendMessage. */
  sendMessage(body: string, messageAttributes?: Record<string, MessageAttributeValue>): string {
    const id = `msg-${++this.sequence}`;
    this.messages.push({ id, body, messageAttributes, sentAt: this.clock.now(), receiveCount: 0, invisibleUntil: 0 });
    this.notify();
    return id;
  }

  /** Ids of the messages still on the queue (visible or not). */
  remainingIds(): string[] {
    return this.messages.map((m) => m.id);
  }

  receiveCount(id: string): number {
    return this.messages.find((m) => m.id === id)?.receiveCount ?? 0;
  }

  /** Seconds until the message is visible again (0 when visible). */
  invisibleForMs(id: string): number {
    const m = this.messages.find((x) => x.id === id);
    return m ? Math.max(0, m.invisibleUntil - this.clock.now()) : 0;
  }

  private async send(command: unknown, options?: { abortSignal?: AbortSignal }): Promise<unknown> {
    const input = (command as { input: Record<string, unknown> }).input;
    this.calls.push({ command: (command as object).constructor.name, input });
    if (command instanceof ReceiveMessageCommand) return this.receive(command.input, options?.abortSignal);
    if (command instanceof DeleteMessageBatchCommand) return this.deleteBatch(command.input.Entries ?? []);
    if (command instanceof ChangeMessageVisibilityBatchCommand) return this.changeVisibility(command.input.Entries ?? []);
    if (command instanceof GetQueueAttributesCommand) return this.attributes();
    throw new Error(`InMemorySqs: unsupported command ${(command as object).constructor.name}`);
  }

  private async receive(input: ReceiveMessageCommand["input"], signal?: AbortSignal): Promise<{ Messages?: Message[] }> {
    const deadline = this.clock.now() + (input.WaitTimeSeconds ?? 0) * 1000;
    for (;;) {
      if (signal?.aborted) throw Object.assign(new Error("Request aborted"), { name: "AbortError" });
      if (this.receiveError) throw this.receiveError;
      const visible = this.messages.filter((m) => m.invisibleUntil <= this.clock.now()).slice(0, input.MaxNumberOfMessages ?? 1);
      if (visible.length > 0 || this.clock.now() >= deadline) {
        return visible.length > 0 ? { Messages: visible.map((m) => this.deliver(m)) } : {};
      }
      // Long poll: wake on a change to the queue, when the clock reaches the deadline or the next visibility expiry.
      const nextVisible = Math.min(deadline, ...this.messages.map((m) => m.invisibleUntil).filter((t) => t > this.clock.now()));
      const wake = new AbortController();
      const changed = new Promise<void>((resolve) => this.waiters.add(resolve));
      await Promise.race([changed, this.clock.sleep(nextVisible - this.clock.now(), wake.signal), aborted(signal)]);
      wake.abort();
    }
  }

  private deliver(m: StoredMessage): Message {
    const now = this.clock.now();
    m.receiveCount++;
    m.firstReceivedAt ??= now;
    m.invisibleUntil = now + this.visibilityTimeoutSeconds * 1000;
    m.receiptHandle = `${m.id}#${m.receiveCount}`;
    const message: Message = {
      MessageId: m.id,
      ReceiptHandle: m.receiptHandle,
      Body: m.body,
      MD5OfBody: md5(m.body),
      Attributes: {
        SenderId: "AIDAEXAMPLELOCAL",
        ApproximateFirstReceiveTimestamp: String(m.firstReceivedAt),
        ApproximateReceiveCount: String(m.receiveCount),
        SentTimestamp: String(m.sentAt),
      },
    };
    if (m.messageAttributes) {
      message.MessageAttributes = m.messageAttributes;
      message.MD5OfMessageAttributes = md5(JSON.stringify(m.messageAttributes));
    }
    return message;
  }

  private deleteBatch(entries: { Id?: string; ReceiptHandle?: string }[]) {
    const Successful: { Id: string }[] = [];
    const Failed: { Id: string; Code: string; SenderFault: boolean; Message: string }[] = [];
    for (const entry of entries) {
      const index = this.messages.findIndex((m) => m.receiptHandle === entry.ReceiptHandle);
      const id = index >= 0 ? this.messages[index].id : "";
      if (index < 0) {
        Failed.push({ Id: entry.Id ?? "", Code: "ReceiptHandleIsInvalid", SenderFault: true, Message: "unknown receipt handle" });
      } else if (this.failNextDeleteOf.delete(id)) {
        Failed.push({ Id: entry.Id ?? "", Code: "InternalError", SenderFault: false, Message: "injected failure" });
      } else {
        this.messages.splice(index, 1);
        Successful.push({ Id: entry.Id ?? "" });
      }
    }
    this.notify();
    return { Successful, Failed };
  }

  private changeVisibility(entries: { Id?: string; ReceiptHandle?: string; VisibilityTimeout?: number }[]) {
    const Successful: { Id: string }[] = [];
    for (const entry of entries) {
      const m = this.messages.find((x) => x.receiptHandle === entry.ReceiptHandle);
      if (m) m.invisibleUntil = this.clock.now() + (entry.VisibilityTimeout ?? 0) * 1000;
      if (m) Successful.push({ Id: entry.Id ?? "" });
    }
    this.notify();
    return { Successful, Failed: [] };
  }

  private attributes() {
    const now = this.clock.now();
    const visible = this.messages.filter((m) => m.invisibleUntil <= now).length;
    return {
      Attributes: {
        ApproximateNumberOfMessages: String(visible),
        ApproximateNumberOfMessagesNotVisible: String(this.messages.length - visible),
        ApproximateNumberOfMessagesDelayed: "0",
      },
    };
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }
}

interface StoredMessage {
  id: string;
  body: string;
  messageAttributes?: Record<string, MessageAttributeValue>;
  sentAt: number;
  receiveCount: number;
  firstReceivedAt?: number;
  invisibleUntil: number;
  receiptHandle?: string;
}

function md5(text: string): string {
  return createHash("md5").update(text).digest("hex");
}

function aborted(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
