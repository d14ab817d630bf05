/**
 * FIFO mode's props and the defaults that differ from standard mode. In FIFO mode both queues are SQS FIFO queues,
 * the state machine runs one `MessageGroupId`'s records of a batch one after another in batch order (other groups
 * in parallel), and the synth holds the settings to what FIFO can honour (fifo-rules.ts).
 */

/** FIFO mode's props, part of {@link IdempotentPipelineProps}. */
export interface FifoProps {
  /**
   * FIFO mode: the source queue and the DLQ are FIFO queues (`<namePrefix>-queue.fifo`, `<namePrefix>-dlq.fifo`);
   * within a `MessageGroupId` a message is applied only after every earlier message of its group was applied,
   * acknowledged as a duplicate or set aside in the DLQ (docs/guarantees.md, "Order within a message group (FIFO)"). Producers must
   * send a `MessageGroupId` (the entity whose events must keep their order, e.g. the account id) and a
   * `MessageDeduplicationId` (unless `contentBasedDeduplication`). Resends after SQS's 5-minute deduplication window
   * are recognised by the ledger, as in standard mode.
   * @default false
   */
  readonly fifo?: boolean;
  /**
   * FIFO only: the source queue derives a missing `MessageDeduplicationId` from the SHA-256 of the body, so a
   * producer's identical body within 5 minutes is accepted by SQS and never delivered. The DLQ never uses it: every
   * quarantine and redrive sends its own deduplication id.
   * @default false
   */
  readonly contentBasedDeduplication?: boolean;
  /**
   * FIFO only: SQS's high-throughput mode on both queues (`DeduplicationScope` `messageGroup`, `FifoThroughputLimit`
   * `perMessageGroupId`): the request quotas apply per partition instead of per queue (docs/capacity.md), and
   * deduplication ids count per group.
   * @default false
   */
  readonly highThroughputFifo?: boolean;
}

/**
 * Defaults that differ in FIFO mode. A group's records run one after another, so the execution's worst case is
 * `batchSize` × the worst case of one record (timing.ts): with the other defaults (115 s a record) two records fit
 * EXPRESS's 300 s, ten would not. The visibility timeout follows (6 × 240 = 1,440 s), and with it how long one failing
 * message can hold its group (× maxReceiveCount: 2 h).
 */
export const FIFO_DEFAULTS = {
  batchSize: 2,
  executionTimeoutSeconds: 240,
} as const;
