import { spawn } from "node:child_process";
import { TerraformCommandError } from "../errors";
import { formatDuration, type Log } from "../progress";

export interface TfResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface Tf {
  /** Runs terraform in the stack folder; resolves whatever the exit code (the caller decides what it means). */
  raw(args: readonly string[]): Promise<TfResult>;
  /** Runs terraform and rejects with a TerraformCommandError on a non-zero exit. */
  ok(args: readonly string[]): Promise<TfResult>;
}

/** Every running terraform, so Ctrl-C can stop them before moto goes away; after that no new one starts. */
const running = new Set<() => void>();
let interrupted = false;
export function stopRunningTerraform(): void {
  interrupted = true;
  for (const stop of [...running]) stop();
}

export function terraformIn(bin: string, cwd: string, env: NodeJS.ProcessEnv, log: Log): Tf {
  const raw = (args: readonly string[]) =>
    new Promise<TfResult>((resolve, reject) => {
      if (interrupted) return reject(new Error(`interrupted: terraform ${args[0]} not started`));
      const started = performance.now();
      const child = spawn(bin, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      const stop = () => child.kill("SIGINT");
      running.add(stop);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("error", (error) => {
        running.delete(stop);
        reject(error);
      });
      child.on("close", (code) => {
        running.delete(stop);
        const ms = performance.now() - started;
        log(`rehearse: terraform ${args[0]} → exit ${code} (${formatDuration(ms)})`);
        resolve({ code, stdout, stderr, ms });
      });
    });
  return {
    raw,
    ok: async (args) => {
      const result = await raw(args);
      if (result.code !== 0) throw new TerraformCommandError(args, result.code, `${result.stderr}\n${result.stdout}`);
      return result;
    },
  };
}
