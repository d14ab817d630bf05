/**
 * The account's limit on synchronous Express executions in flight ("Synchronous Express Workflows concurrent
 * executions", Step Functions quotas), enforced at StartSyncExecution as AWS does: a start beyond the limit fails
 * at once with ThrottlingException (HTTP 400, the API's common throttling error) and no execution runs. Off unless
 * `limits.syncExpressConcurrency` is set, so runs without it keep their paths. One limit per local cloud: the quota
 * is per account and region, shared by every synchronous Express state machine of the stack.
 */
export class ThrottlingException extends Error {
  readonly $fault = "client";
  readonly $metadata = { httpStatusCode: 400 };
  // The SDK's retry strategy reads this flag; Pipes treats a throttled target call as retryable.
  readonly $retryable = { throttling: true };
  constructor(message = "Rate exceeded") {
    super(message);
    this.name = "ThrottlingException";
  }
}

export class SyncExpressLimit {
  private inFlight = 0;
  private refused = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RangeError(`limits.syncExpressConcurrency: ${JSON.stringify(limit)} is not an integer >= 1 (leave it out for no limit)`);
    }
  }

  /** Runs one StartSyncExecution: refused with ThrottlingException when `limit` executions are in flight. */
  async run<T>(execution: () => Promise<T>): Promise<T> {
    // Checked and taken synchronously, so a burst of starts sees the limit at once.
    if (this.inFlight >= this.limit) {
      this.refused += 1;
      throw new ThrottlingException();
    }
    this.inFlight += 1;
    try {
      return await execution();
    } finally {
      this.inFlight -= 1;
    }
  }

  stats(): { readonly limit: number; readonly inFlight: number; readonly throttled: number } {
    return { limit: this.limit, inFlight: this.inFlight, throttled: this.refused };
  }
}
