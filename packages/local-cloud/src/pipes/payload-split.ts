import { PipeLimits } from "./constants";
import type { SqsRecord } from "@effectively-once/contract/pipe-filter";

/** Records sent to the target in one execution, with their input (records or rendered templates). */
export interface PayloadChunk {
  records: SqsRecord[];
  input: unknown[];
  /** JSON characters of `input` (the array as the target receives it). */
  chars: number;
  /** One record alone already exceeds the target's limit: it cannot be sent at all. */
  oversized: boolean;
}

/**
 * Cuts one batch into consecutive executions whose JSON input stays within what a Step Functions target
 * accepts (AWS, "Batching and concurrency": Step Functions targets "are bound by the event total payload size,
 * rather than the size of the batch: 262,144 characters"). A receive returns up to 10 messages at once, so a
 * batch gathered up to the limit can still overshoot by a few records: those go in the next execution.
 * Characters are JavaScript string length (UTF-16 code units) of the JSON text.
 */
export function splitByPayload(records: SqsRecord[], input: unknown[], limit: number = PipeLimits.STEP_FUNCTIONS_MAX_INPUT_CHARS): PayloadChunk[] {
  const chunks: PayloadChunk[] = [];
  let current: PayloadChunk | undefined;
  input.forEach((item, i) => {
    const chars = JSON.stringify(item).length;
    // "[" + items joined by "," + "]"
    if (current && current.chars + 1 + chars <= limit) {
      current.records.push(records[i]);
      current.input.push(item);
      current.chars += 1 + chars;
      return;
    }
    current = { records: [records[i]], input: [item], chars: 2 + chars, oversized: 2 + chars > limit };
    chunks.push(current);
  });
  return chunks;
}
