// `effectively-once verify --target aws|local`: the probes the offline proof assumes, on a dedicated probe stack; AWS's answers beside the local cloud's.
import { runVerifyCli } from "../verify/cli";
import { VerifyError } from "../verify/errors";
import type { CommandIo } from "./io";

/** Ctrl-C stops the probes, never the teardown: the probe stack is destroyed before verify exits. */
export async function runVerify(argv: readonly string[], io: CommandIo): Promise<number> {
  const interrupted = new AbortController();
  // `on`, not `once`: tsx relays a SIGINT more than once.
  const onSignal = () => {
    if (interrupted.signal.aborted) return;
    io.stderr("verify: interrupted: stopping the probes; the probe stack is destroyed before exit");
    interrupted.abort(new VerifyError("interrupted (Ctrl-C): no report"));
  };
  process.on("SIGINT", onSignal);
  try {
    return await runVerifyCli(argv, { env: io.env, stdout: io.stdout, stderr: io.stderr, signal: interrupted.signal });
  } catch (error) {
    io.stderr(`verify: FAILED: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    process.off("SIGINT", onSignal);
  }
}
