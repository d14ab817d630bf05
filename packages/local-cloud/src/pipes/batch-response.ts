/**
 * Reading a target's partial-batch-failure answer, with AWS's rules (EventBridge user guide, "Amazon SQS as a
 * source", Reporting batch item failures):
 * - complete success: an empty or null `batchItemFailures` list, or an empty or null response;
 * - complete failure: an invalid JSON response, an empty-string or null `itemIdentifier`, an item with a bad key
 *   name, an `itemIdentifier` naming a message that is not in the batch.
 */
type BatchResponse =
  | { kind: "all-succeeded" }
  | { kind: "partial"; failedIds: ReadonlySet<string> }
  | { kind: "invalid"; reason: string };

/** Interprets an execution `output` (a parsed value or JSON text) against the message ids sent in the batch. */
export function readBatchResponse(output: unknown, batchIds: ReadonlySet<string>): BatchResponse {
  let value = output;
  if (typeof output === "string") {
    if (output.trim() === "") return { kind: "all-succeeded" };
    try {
      value = JSON.parse(output);
    } catch {
      return { kind: "invalid", reason: "the output is not valid JSON" };
    }
  }
  if (value === undefined || value === null) return { kind: "all-succeeded" };
  if (typeof value !== "object" || Array.isArray(value)) {
    return { kind: "invalid", reason: `the output is ${describe(value)}, not an object with batchItemFailures` };
  }
  const failures = (value as Record<string, unknown>).batchItemFailures;
  if (failures === undefined || failures === null) return { kind: "all-succeeded" };
  if (!Array.isArray(failures)) return { kind: "invalid", reason: `batchItemFailures is ${describe(failures)}, not a list` };
  const failedIds = new Set<string>();
  for (const [i, item] of failures.entries()) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      return { kind: "invalid", reason: `batchItemFailures[${i}] is ${describe(item)}, not an object` };
    }
    const id = (item as Record<string, unknown>).itemIdentifier;
    if (typeof id !== "string" || id === "") {
      return { kind: "invalid", reason: `batchItemFailures[${i}].itemIdentifier is ${describe(id)}, not a message id` };
    }
    if (!batchIds.has(id)) {
      return { kind: "invalid", reason: `batchItemFailures[${i}].itemIdentifier "${id}" is not a message of this batch` };
    }
    failedIds.add(id);
  }
  return failedIds.size === 0 ? { kind: "all-succeeded" } : { kind: "partial", failedIds };
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (value === "") return "an empty string";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
