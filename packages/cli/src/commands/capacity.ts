// `npm run capacity:plan`: what each part needs at N messages per second against AWS's default quotas (see docs/capacity.md).
import { runCapacityCli } from "../capacity/cli";

process.exitCode = runCapacityCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
