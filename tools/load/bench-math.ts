/** The arithmetic of `npm run bench`, kept apart so it can be checked on its own. */

/** Requests per operation made between two snapshots of cumulative counters (operations with none are left out). */
export function requestDelta(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [op, n] of Object.entries(after)) {
    const made = n - (before[op] ?? 0);
    if (made > 0) out[op] = made;
  }
  return out;
}

/** All requests of a delta divided by the messages that caused them. */
export function callsPerMessage(delta: Record<string, number>, messages: number): number {
  if (messages <= 0) return 0;
  return Object.values(delta).reduce((a, b) => a + b, 0) / messages;
}

/**
 * How close the pipeline comes to the storage floor: the DynamoDB operations per second it drove (messages per
 * second × measured calls per message) over the operations per second the same dynalite serves a bare client.
 */
export function floorRatio(messagesPerSecond: number, dynamoCallsPerMessage: number, floorOpsPerSecond: number): number {
  return floorOpsPerSecond > 0 ? (messagesPerSecond * dynamoCallsPerMessage) / floorOpsPerSecond : 0;
}

/** Messages per second over a duration in milliseconds. */
export function perSecond(count: number, ms: number): number {
  return ms > 0 ? (count / ms) * 1000 : 0;
}
