// `npm run plan:review`: synthesize, terraform plan (offline without AWS credentials), and print a review of the plan.
import { cleanupInFlightRuns } from "../terraform/plan-stack";
import { main } from "../terraform/plan-cli";

// Ctrl-C: terraform stops with us; the offline override and temporary state must not stay behind.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    cleanupInFlightRuns();
    process.stderr.write(`plan: interrupted (${signal}); temporary files and the offline override removed\n`);
    process.exit(130);
  });
}

// main never rejects: it resolves with the exit code.
void main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
