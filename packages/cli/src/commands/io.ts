/** What a command reads and writes: the environment, its folder, results on stdout, progress and errors on stderr. */
export interface CommandIo {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Results (the review, the report, JSON with --json), written as given. */
  readonly stdout: (text: string) => void;
  /** Progress and errors, one line at a time. */
  readonly stderr: (line: string) => void;
}

/** The process's own streams. */
export const processIo = (): CommandIo => ({
  env: process.env,
  cwd: process.cwd(),
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
