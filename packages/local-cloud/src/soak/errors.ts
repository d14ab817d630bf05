/** Root of every error the load tools (`npm run soak`, `npm run bench`) raise on purpose. */
export class LoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "LoadError";
  }
}

/** A command-line flag is wrong: the message names the flag and the fix. */
export class LoadUsageError extends LoadError {
  /** The command-line flag at fault (`--rate`, `--seconds`, …). */
  readonly flag: string;
  constructor(flag: string, message: string, options?: { cause?: unknown }) {
    super(`--${flag}: ${message}`, options);
    this.name = "LoadUsageError";
    this.flag = flag;
  }
}

/** The pipeline did not settle in time: messages still in the queue or batches in flight. */
export class SettleTimeoutError extends LoadError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SettleTimeoutError";
  }
}
