/** Bad input the CLI reports in one line (exit 2): a flag, a file, a stack the command cannot use. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
