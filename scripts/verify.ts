// `npm run verify -- --target aws|local`: the probes the offline proof assumes, on a dedicated probe stack; AWS's answers beside the local cloud's.
import { runVerifyCli } from "../tools/verify/cli";

runVerifyCli(process.argv.slice(2), { env: process.env, stdout: (text) => process.stdout.write(text), stderr: (line) => process.stderr.write(`${line}\n`) }).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`verify: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
