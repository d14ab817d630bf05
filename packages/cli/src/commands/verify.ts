// `npm run verify -- --target aws|local`: the probes the offline proof assumes, on a dedicated probe stack; AWS's answers beside the local cloud's.
import { runVerifyCli } from "../verify/cli";
import { VerifyError } from "../verify/errors";

// Ctrl-C stops the probes, never the teardown: the probe stack is destroyed before verify exits. `on`, not `once`:
// tsx relays a SIGINT more than once.
const interrupted = new AbortController();
process.on("SIGINT", () => {
  if (interrupted.signal.aborted) return;
  process.stderr.write("verify: interrupted: stopping the probes; the probe stack is destroyed before exit\n");
  interrupted.abort(new VerifyError("interrupted (Ctrl-C): no report"));
});

runVerifyCli(process.argv.slice(2), { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`), signal: interrupted.signal }).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`verify: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
