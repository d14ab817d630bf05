import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { RehearsalNotRunError, RehearsalError } from "./errors";

const MOTO_BIN_ENV = "MOTO_SERVER_BIN";

/** The moto_server binary: `$MOTO_SERVER_BIN`, else the first `moto_server` on PATH; undefined when there is none. */
export function findMotoServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env[MOTO_BIN_ENV];
  if (configured) return existsSync(configured) ? configured : undefined;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, "moto_server");
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

export interface MotoServer {
  /** `http://127.0.0.1:<port>`. */
  readonly endpoint: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Werkzeug prints `Running on http://127.0.0.1:<port>` once it listens; port 0 lets the OS pick a free port. */
const LISTENING = /Running on http:\/\/127\.0\.0\.1:(\d+)/;

/** Starts moto's server bound to 127.0.0.1 on a free port; resolves once it listens. */
export function startMoto(bin: string, options: { timeoutMs?: number } = {}): Promise<MotoServer> {
  const child: ChildProcess = spawn(bin, ["-H", "127.0.0.1", "-p", "0"], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, PYTHONUNBUFFERED: "1" } });
  let output = "";
  // Last resort if this process exits without the run's finally block (e.g. an uncaught error): no orphaned moto.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const stop = () =>
    new Promise<void>((resolve) => {
      process.off("exit", killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
      // moto exits on SIGTERM at once; a hung server must not keep the rehearsal (or CI) waiting.
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new RehearsalError(`moto_server did not report a listening port within ${options.timeoutMs ?? 15000} ms; it printed: ${output.slice(-400)}`));
    }, options.timeoutMs ?? 15000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = LISTENING.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      // Keep draining its request log, or the pipe fills and moto blocks.
      child.stdout?.resume();
      child.stderr?.resume();
      resolve({ endpoint: `http://127.0.0.1:${match[1]}`, pid: child.pid!, stop });
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new RehearsalNotRunError(`cannot start moto_server (${bin}): ${error.message}`, { cause: error }));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new RehearsalError(`moto_server exited with ${code} before listening: ${output.slice(-400)}`));
    });
  });
}
