/**
 * Counts the requests dynalite serves, per DynamoDB operation (from `X-Amz-Target`). The counts live in a
 * SharedArrayBuffer so dynalite can run in a worker thread and the host still reads them synchronously.
 */

/** Operations counted by name; anything else (or no target) counts as "other". */
export const COUNTED_OPERATIONS = [
  "GetItem",
  "PutItem",
  "UpdateItem",
  "DeleteItem",
  "Query",
  "Scan",
  "BatchGetItem",
  "BatchWriteItem",
  "CreateTable",
  "DeleteTable",
  "DescribeTable",
  "ListTables",
  "UpdateTable",
  "DescribeTimeToLive",
  "UpdateTimeToLive",
  "TagResource",
  "UntagResource",
  "ListTagsOfResource",
  "other",
] as const;

export interface RequestCounter {
  /** Shared with a worker thread that counts with `Atomics.add`. */
  readonly buffer: SharedArrayBuffer;
  /** Counts one request given its `X-Amz-Target` header (e.g. `DynamoDB_20120810.PutItem`). */
  record(target: string | string[] | undefined): void;
  /** Requests per operation so far (operations never called are left out). */
  snapshot(): Record<string, number>;
}

const INDEX = new Map<string, number>(COUNTED_OPERATIONS.map((name, i) => [name, i]));
const OTHER = COUNTED_OPERATIONS.length - 1;

/** The slot of an `X-Amz-Target` header value (shared with the worker, which cannot import TypeScript). */
function operationSlot(target: string | string[] | undefined): number {
  const value = Array.isArray(target) ? target[0] : target;
  const dot = value ? value.lastIndexOf(".") : -1;
  return (dot >= 0 ? INDEX.get(value!.slice(dot + 1)) : undefined) ?? OTHER;
}

export function createRequestCounter(): RequestCounter {
  const buffer = new SharedArrayBuffer(COUNTED_OPERATIONS.length * Int32Array.BYTES_PER_ELEMENT);
  const counts = new Int32Array(buffer);
  return {
    buffer,
    record(target) {
      Atomics.add(counts, operationSlot(target), 1);
    },
    snapshot() {
      const out: Record<string, number> = {};
      COUNTED_OPERATIONS.forEach((name, i) => {
        const n = Atomics.load(counts, i);
        if (n > 0) out[name] = n;
      });
      return out;
    },
  };
}
