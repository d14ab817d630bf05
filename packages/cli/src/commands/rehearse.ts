// `npm run rehearse`: apply → re-plan → change → teardown of the synthesized stack against moto, offline.
import { main } from "../terraform/rehearse/cli";
import { stopRunningTerraform } from "../terraform/rehearse/tf";

// Ctrl-C: terraform stops first and no new step starts; the run's finally block then stops moto and removes the
// temporary folder. `on`, not `once`: tsx relays a SIGINT twice, and an unhandled second one would kill us mid-cleanup.
let interrupted = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (interrupted) return;
    interrupted = true;
    stopRunningTerraform();
    process.exitCode = 130;
    process.stderr.write(`rehearse: interrupted (${signal}); stopping terraform, then moto\n`);
  });
}

// main never rejects: it resolves with the exit code.
void main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = interrupted ? 130 : code;
});
