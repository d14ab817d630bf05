import { GetQueueAttributesCommand, SendMessageBatchCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { checkFates } from "../../src/soak/fate-checks";
import { LoadKind, type LoadMessage } from "../../src/soak/generator";
import { publish, type LoadSent } from "../../src/soak/publisher";

/** A stand-in queue for one unit: counts what is in it and lets a test drain it. */
function fakeQueue() {
  let depth = 0;
  let ids = 0;
  const depthReads: number[] = [];
  const client = {
    async send(command: object) {
      if (command instanceof SendMessageBatchCommand) {
        const entries = command.input.Entries ?? [];
        depth += entries.length;
        return { Successful: entries.map((e) => ({ Id: e.Id, MessageId: `m-${++ids}` })), Failed: [] };
      }
      if (command instanceof GetQueueAttributesCommand) {
        depthReads.push(depth);
        return { Attributes: { ApproximateNumberOfMessages: String(depth), ApproximateNumberOfMessagesNotVisible: "0", ApproximateNumberOfMessagesDelayed: "0" } };
      }
      throw new Error(`unexpected ${command.constructor.name}`);
    },
  };
  return { client: client as unknown as SQSClient, depthReads, drain: (n: number) => (depth = Math.max(0, depth - n)), depth: () => depth };
}

const messages = (n: number): LoadMessage[] => Array.from({ length: n }, (_, i) => ({ kind: LoadKind.Unique, body: `{"n":${i}}`, effectKey: `t#o${i}#charge`, fingerprint: "1|EUR" }));

describe("Function: publish", () => {
  it("sends every message in batches of 10, in order, with its message id and send time", async () => {
    // Arrange
    const queue = fakeQueue();

    // Act
    const sent = await publish({ sqs: queue.client, queueUrl: "q", messages: messages(25), maxBacklog: 0, ratePerSecond: 0, concurrency: 1 });

    // Assert
    expect(sent.map((m) => m.body)).toEqual(messages(25).map((m) => m.body));
    expect(sent.every((m) => m.messageId.startsWith("m-") && m.sentAt > 0)).toBe(true);
    expect(queue.depth()).toBe(25);
  });

  it("waits while the queue holds the backlog, and goes on as it drains", async () => {
    // Arrange
    const queue = fakeQueue();
    const drainer = setInterval(() => queue.drain(10), 5);

    // Act
    const sent = await publish({ sqs: queue.client, queueUrl: "q", messages: messages(100), maxBacklog: 20, ratePerSecond: 0, concurrency: 1 }).finally(() => clearInterval(drainer));

    // Assert
    expect(sent).toHaveLength(100);
    expect(queue.depthReads.length).toBeGreaterThan(0);
    expect(Math.max(...queue.depthReads)).toBeLessThanOrEqual(20);
  });
});

describe("Function: checkFates", () => {
  const sent = (messageId: string, kind: LoadKind): LoadSent => ({ messageId, kind, body: "{}", sentAt: 1 });
  const dlq = (originalMessageId: string | undefined, reason: string, messageId = `d-${originalMessageId}`) => ({ messageId, originalMessageId, reason, body: "{}", sentAt: 1 });

  it("finds invalid or rejected messages filed under the wrong reason, and counts detected conflicts", () => {
    // Act
    const fates = checkFates(
      [sent("a", LoadKind.InvalidJson), sent("b", LoadKind.MissingField), sent("c", LoadKind.Rejected), sent("d", LoadKind.Rejected), sent("e", LoadKind.Conflict)],
      [dlq("a", "invalid-message"), dlq("b", "rejected"), dlq(undefined, "retries-exhausted", "c"), dlq("e", "payload-mismatch")],
    );

    // Assert
    expect(fates).toEqual({ invalidMisfiled: ["b"], rejectedMisfiled: ["d"], conflictsDetected: 1 });
  });
});
