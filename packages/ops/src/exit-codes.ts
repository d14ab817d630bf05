/** Exit codes of `pipeline-ops`, stable for scripts. */
export const ExitCode = {
  /** The command did what was asked (and found something, where that matters). */
  Ok: 0,
  /** Operational failure, a refusal, or nothing matched (unknown key, empty DLQ, no message selected). */
  Failure: 1,
  /** Usage error: unknown command or option, missing argument, bad value, a prompt needed without a terminal. */
  Usage: 2,
  /** The target is unreachable or misconfigured: no state file, process gone, missing output, endpoint down, no credentials, queue or table not found. */
  Target: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
