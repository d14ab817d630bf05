/**
 * The probe of one TestState run (runtime/probe.ts): keeps the stages the state passes, and decides Retry as AWS's
 * TestState reports it. A retrier that matches the error and has attempts left makes the answer RETRIABLE, with the
 * backoff the next attempt would wait (IntervalSeconds × BackoffRate^retrierRetryCount, capped by MaxDelaySeconds;
 * recorded on AWS: 16 s after 4 retries of 1 s × 2.0); a spent retrier (retrierRetryCount ≥ MaxAttempts) hands the
 * error on to Catch and reports only its index (recorded 2025-11-22, test_state_configuration_retrier_retry_count).
 */
import type { Retrier } from "../definition/compiled";
import type { StatesError } from "../errors";
import type { InspectionStage, StateProbe } from "../runtime/probe";
import { retryDelayMs } from "../runtime/retry";
import type { InspectionErrorDetails } from "./types";

/** Thrown out of the state when a retrier would retry: the run ends RETRIABLE. */
export class RetryPending extends Error {
  constructor(readonly error: StatesError) {
    super(error.causeText);
    this.name = "RetryPending";
  }
}

export class TestStateProbe implements StateProbe {
  readonly stages = new Map<InspectionStage, unknown>();
  readonly errorDetails: InspectionErrorDetails = {};
  /** The error a Catcher handled, when one did. */
  caughtError?: StatesError;
  readonly mocked?: StateProbe["mocked"];

  constructor(
    private readonly retrierRetryCount: number,
    readonly context: Record<string, unknown> | undefined,
    mocked: StateProbe["mocked"] | undefined,
  ) {
    if (mocked) this.mocked = mocked;
  }

  stage(name: InspectionStage, value: unknown): void {
    this.stages.set(name, value);
  }

  retrier(index: number, retrier: Retrier, error: StatesError): Error | undefined {
    this.errorDetails.retryIndex = index;
    if (this.retrierRetryCount >= retrier.maxAttempts) return undefined;
    // Without jitter: the delay a FULL jitter draws from is at most this.
    this.errorDetails.retryBackoffIntervalSeconds = Math.floor(retryDelayMs(retrier, this.retrierRetryCount, () => 1) / 1000);
    return new RetryPending(error);
  }

  caught(index: number, error: StatesError): void {
    this.errorDetails.catchIndex = index;
    this.caughtError = error;
  }
}
