/**
 * Errors of the Pipes runner.
 *
 * `PipeConfigError` and `EventPatternError` (the pipeline package's pipe-filter module) are thrown to the caller when
 * a pipe is created (bad options, a filter pattern AWS would refuse). {@link DrainTimeoutError} comes from `drain()`.
 * Nothing else is thrown while the pipe runs: run-time problems become events (see `PipeEvent`) and the messages stay
 * on the queue, as on AWS.
 */

/** `drain()` gave up: messages were still on the queue or batches still in flight when its deadline passed. */
export class DrainTimeoutError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DrainTimeoutError";
  }
}
