// `npm run deployer-policy`: the least-privilege policy of whoever deploys the synthesized stack (see docs/deploy.md).
import { runDeployerPolicyCli } from "../deployer/cli";

void runDeployerPolicyCli(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
}).then((code) => {
  process.exitCode = code;
});
