// `npm run preflight`: what only the AWS account knows (unreserved concurrency, quotas) against the stack, read-only.
import { runPreflightCli } from "../preflight/cli";

runPreflightCli(process.argv.slice(2), { env: process.env, stdout: (text) => process.stdout.write(text) }).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stdout.write(`preflight: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
