// `npm run rehearse`: apply → re-plan → change → teardown of the synthesized stack against moto, offline.
import { main } from "../src/terraform/rehearse/cli";
import { stopRunningTerraform } from "../src/terraform/rehearse/tf";

// Ctrl-C: terraform stops first; the run's finally block then stops moto and removes the temporary folder.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    stopRunningTerraform();
    process.stderr.write(`rehearse: interrupted (${signal}); stopping terraform and moto\n`);
  });
}

main(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
