/**
 * The two SQS implementations the proof runs on, behind one small interface, so one set of conformance cases runs
 * against both: the simulation's SQS model (tools/sim/src/sqs/service.ts, virtual time) and the local SQS (fauxqs with the
 * fidelity layer, over the wire with the real SDK, the local cloud's shared clock).
 */
import { CreateQueueCommand, GetQueueAttributesCommand, ListMessageMoveTasksCommand, StartMessageMoveTaskCommand } from "@aws-sdk/client-sqs";
import type { SQSClient } from "@aws-sdk/client-sqs";
import { sharedClock } from "@effectively-once/local-cloud/emulators";
import { createSqsClient, startSqs } from "@effectively-once/local-cloud/emulators";
import type { LocalSqs } from "@effectively-once/local-cloud/emulators";
import { SimSqs } from "../../../src/sqs/service";
import { VirtualClock } from "../../../src/clock/virtual-clock";
import { waitFor } from "@effectively-once/testing";

export interface ConformanceQueue {
  readonly url: string;
  readonly arn: string;
}

export interface QueueSpec {
  visibilityTimeoutSeconds?: number;
  retentionSeconds?: number;
  maxMessageBytes?: number;
  deadLetter?: { queue: ConformanceQueue; maxReceiveCount: number };
  /** The queue's `RedriveAllowPolicy` (which queues may name it as their DLQ); absent = allowAll. */
  redriveAllowPolicy?: string;
  /** A FIFO queue (its name ends in `.fifo`). */
  fifo?: { contentBasedDeduplication?: boolean; deduplicationScope?: "queue" | "messageGroup" };
}

/** Settings every conformance queue starts from (AWS's defaults, except the maximum size the construct sets). */
const DEFAULTS = { visibilityTimeoutSeconds: 30, retentionSeconds: 345_600, maxMessageBytes: 262_144 };

export interface SqsUnderTest {
  readonly name: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  createQueue(spec?: QueueSpec): Promise<ConformanceQueue>;
  /** A client whose calls carry `identity` (SQS's SenderId): the same SDK commands on both. */
  clientAs(identity?: string): Pick<SQSClient, "send">;
  /** Moves this SQS's clock forward. */
  pass(seconds: number): void;
  /**
   * A native DLQ redrive (StartMessageMoveTask) from `source` to `destination`, or back to each message's source queue,
   * resolved once done; undefined where the implementation has none yet.
   */
  moveMessages?(source: ConformanceQueue, destination?: ConformanceQueue): Promise<void>;
}

/** The simulation's native move: StartMessageMoveTask to `destination` or back to the queue each message was dead-lettered from, done at once. */
async function simulationMessageMove(sim: SimSqs, source: ConformanceQueue, destination?: ConformanceQueue): Promise<void> {
  await sim.clientAs("operator").send(new StartMessageMoveTaskCommand({ SourceArn: source.arn, DestinationArn: destination?.arn }));
}

export function simulationSqs(): SqsUnderTest {
  let clock = new VirtualClock(Date.UTC(2026, 0, 1));
  let sim = new SimSqs(clock);
  let count = 0;
  return {
    name: "the simulation's SQS model",
    async start() {
      clock = new VirtualClock(Date.UTC(2026, 0, 1));
      sim = new SimSqs(clock);
    },
    async stop() {},
    async createQueue(spec = {}) {
      count += 1;
      const name = `conformance-${count}${spec.fifo ? ".fifo" : ""}`;
      const queue = { url: `https://sqs.us-east-1.amazonaws.com/000000000000/${name}`, arn: `arn:aws:sqs:us-east-1:000000000000:${name}` };
      const { deadLetter, fifo, ...settings } = spec;
      const fifoConfig = fifo ? { fifo: { contentBasedDeduplication: fifo.contentBasedDeduplication ?? false, deduplicationScope: fifo.deduplicationScope ?? ("queue" as const) } } : {};
      sim.addQueue({ ...queue, ...DEFAULTS, ...settings, ...fifoConfig, ...(deadLetter ? { redrive: { deadLetterUrl: deadLetter.queue.url, maxReceiveCount: deadLetter.maxReceiveCount } } : {}) });
      return queue;
    },
    clientAs: (identity = "local") => sim.clientAs(identity),
    pass: (seconds) => clock.jump(seconds * 1000),
    moveMessages: (source, destination) => simulationMessageMove(sim, source, destination),
  };
}

export function localSqs(): SqsUnderTest {
  let sqs: LocalSqs | undefined;
  const clients = new Map<string, SQSClient>();
  let count = 0;
  const clientAs = (identity = "local"): SQSClient => {
    if (!sqs) throw new Error("the local SQS is not running");
    const existing = clients.get(identity);
    if (existing) return existing;
    const client = createSqsClient(sqs.endpoint, { credentials: { accessKeyId: identity, secretAccessKey: "local" } });
    clients.set(identity, client);
    return client;
  };
  return {
    name: "the local SQS (fauxqs + fidelity, real SDK)",
    async start() {
      sqs = await startSqs();
    },
    async stop() {
      for (const client of clients.values()) client.destroy();
      await sqs?.stop();
    },
    async createQueue(spec = {}) {
      count += 1;
      const settings = { ...DEFAULTS, ...spec };
      const Attributes: Record<string, string> = {
        VisibilityTimeout: String(settings.visibilityTimeoutSeconds),
        MessageRetentionPeriod: String(settings.retentionSeconds),
        MaximumMessageSize: String(settings.maxMessageBytes),
      };
      if (spec.redriveAllowPolicy !== undefined) Attributes.RedriveAllowPolicy = spec.redriveAllowPolicy;
      if (spec.deadLetter) Attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: spec.deadLetter.queue.arn, maxReceiveCount: spec.deadLetter.maxReceiveCount });
      if (spec.fifo) {
        Attributes.FifoQueue = "true";
        Attributes.ContentBasedDeduplication = String(spec.fifo.contentBasedDeduplication ?? false);
        Attributes.DeduplicationScope = spec.fifo.deduplicationScope ?? "queue";
      }
      const client = clientAs();
      const { QueueUrl } = await client.send(new CreateQueueCommand({ QueueName: `conformance-${process.pid}-${count}${spec.fifo ? ".fifo" : ""}`, Attributes }));
      const { Attributes: read } = await client.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }));
      return { url: QueueUrl as string, arn: read?.QueueArn as string };
    },
    clientAs,
    pass: (seconds) => sharedClock().advance(seconds),
    async moveMessages(source, destination) {
      const client = clientAs();
      await client.send(new StartMessageMoveTaskCommand({ SourceArn: source.arn, DestinationArn: destination?.arn }));
      await waitFor(async () => (await client.send(new ListMessageMoveTasksCommand({ SourceArn: source.arn }))).Results?.[0]?.Status === "COMPLETED", { message: "the move task completed" });
    },
  };
}

/** Both implementations; the conformance cases run against each. */
export const IMPLEMENTATIONS: ReadonlyArray<() => SqsUnderTest> = [simulationSqs, localSqs];
