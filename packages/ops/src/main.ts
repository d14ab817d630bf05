// `npm run -s ops -- <command>` / `pipeline-ops <command>`: the operator CLI (DLQ, ledger, key tracing).
// See docs/operations.md; `--help` on every command.
import { runCli } from "./cli";
import { promptLine } from "./terminal";

// The AWS SDK warns once per process (at client construction) that Node 20 support ends in 2027: noise on an
// operator's stderr, where scripts expect one line per failure.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

// runCli never rejects: every failure is one line on stderr and an exit code.
void runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  stdinIsTty: process.stdin.isTTY === true,
  prompt: promptLine,
  debug: process.env.PIPELINE_OPS_DEBUG === "1",
}).then((code) => {
  process.exitCode = code;
});
