import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

/**
 * A FIFO source's rule across the executions one batch needs (payload-split.ts): once a record of a message group is
 * to be retried, no later record of that group goes to the target; each comes back with it. AWS: Lambda's SQS poller
 * (which Pipes' SQS source describes the same way) "attempts all retries on the affected messages before Lambda
 * receives additional messages from the same group" ("Configuring scaling behavior for SQS event source mappings");
 * EventBridge Pipes: "If a source enforces order to the events sent to EventBridge Pipes, that order is maintained
 * throughout the entire process to the destination" ("Amazon EventBridge Pipes sources"). The construct's byte rules
 * keep a batch in one execution, so this holds only for batches larger than that.
 */
export class FifoHold {
  private readonly held = new Set<string>();

  constructor(private readonly fifo: boolean) {}

  /** The records to send now, and those held behind an earlier record of their group. */
  split(records: readonly SqsRecord[]): { send: number[]; hold: number[] } {
    const send: number[] = [];
    const hold: number[] = [];
    records.forEach((record, i) => (this.fifo && this.held.has(groupOf(record)) ? hold : send).push(i));
    return { send, hold };
  }

  /** Records the target did not settle: their groups hold every later record of the batch. */
  retried(records: readonly SqsRecord[], acknowledged: ReadonlySet<string>): void {
    if (!this.fifo) return;
    for (const record of records) if (!acknowledged.has(record.messageId)) this.held.add(groupOf(record));
  }
}

function groupOf(record: SqsRecord): string {
  return record.attributes?.MessageGroupId ?? "";
}
