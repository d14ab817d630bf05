/** Errors of the event-pattern matcher and the pipe's filter criteria, thrown when a pipe is created. */

/** An option of the pipe (its filter criteria, or another `createPipeRunner` option) is missing or invalid; the message names the field and the fix. */
export class PipeConfigError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PipeConfigError";
  }
}

/** An event pattern is not valid EventBridge pattern syntax (AWS answers `InvalidEventPatternException`). */
export class EventPatternError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EventPatternError";
  }
}
