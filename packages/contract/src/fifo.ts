/**
 * What FIFO mode's parts share (the construct, the state machine, `pipeline-ops`, the local cloud): SQS's own FIFO
 * facts, and the deduplication ids the pipeline gives its own sends, so that SQS's deduplication never drops one.
 */

/** SQS's deduplication interval for FIFO queues (SendMessage's `MessageDeduplicationId`: "the 5-minute deduplication interval"). */
export const FIFO_DEDUPLICATION_WINDOW_SECONDS = 300;

/** The queue-name suffix SQS requires of a FIFO queue (CreateQueue: "The name of a FIFO queue must end with the .fifo suffix"). */
export const FIFO_SUFFIX = ".fifo";

/** Whether a queue URL or ARN names a FIFO queue (its name ends in `.fifo`, which SQS requires of FIFO queues only). */
export function isFifoQueue(urlOrArn: string): boolean {
  return urlOrArn.endsWith(FIFO_SUFFIX);
}

/**
 * The `MessageDeduplicationId` of a copy `pipeline-ops dlq redrive` sends back to a FIFO source queue: named after
 * the DLQ message it copies. Unique per copy (SQS gives every DLQ message its own id, which producers never see, so
 * no producer's id can equal it), and the same for a repeated send of the same copy (an SDK retry, or a redrive run
 * again after a crash between the send and the delete): within SQS's 5 minutes that send is accepted and not
 * delivered again, the first copy stands. (SQS: at most 128 characters; a message id is at most 100.)
 */
export function redriveDeduplicationId(dlqMessageId: string): string {
  return `eo-redrive-${dlqMessageId}`;
}
