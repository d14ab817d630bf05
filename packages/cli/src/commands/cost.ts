// `npm run cost`: cost per million messages from the synthesized stack and us-east-1 list prices (see docs/cost.md).
import { runCostCli } from "../cost/cost-cli";

process.exitCode = runCostCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
