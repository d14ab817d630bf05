// `npm run cost:chart`: writes docs/cost-chart.svg (cost per million messages against batch size), no dependencies.
import { runChartCli } from "../cost/chart-cli";

process.exitCode = runChartCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
