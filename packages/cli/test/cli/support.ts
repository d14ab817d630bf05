import { runCli } from "../../src/main";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string[];
}

/**
 * Runs one command line in this process, from `cwd`, capturing what it writes; a command that writes to the process's
 * own stdout (the Step Functions CLI) is captured too.
 */
export async function cli(argv: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  let stdout = "";
  const stderr: string[] = [];
  const direct = jest.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    const code = await runCli(argv, { env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME }, cwd: options.cwd ?? process.cwd(), stdout: (t) => (stdout += t), stderr: (l) => stderr.push(l) });
    return { code, stdout, stderr };
  } finally {
    direct.mockRestore();
  }
}
