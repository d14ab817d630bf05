/**
 * Errors of the Pipes runner.
 *
 * {@link PipeConfigError} and {@link EventPatternError} are thrown to the caller when a pipe is created (bad
 * options, a filter pattern AWS would refuse). {@link DrainTimeoutError} comes from `drain()`. Nothing else is
 * thrown while the pipe runs: run-time problems become events (see `PipeEvent`) and the messages stay on the
 * queue, as on AWS.
 */

/** Root of every error this module throws. */
class PipesError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipesError";
  }
}

/** An option of `createPipeRunner` is missing or invalid; the message names the field and the fix. */
export class PipeConfigError extends PipesError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipeConfigError";
  }
}

/** An event pattern is not valid EventBridge pattern syntax (AWS answers `InvalidEventPatternException`). */
export class EventPatternError extends PipesError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EventPatternError";
  }
}

/** `drain()` gave up: messages were still on the queue or batches still in flight when its deadline passed. */
export class DrainTimeoutError extends PipesError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DrainTimeoutError";
  }
}
