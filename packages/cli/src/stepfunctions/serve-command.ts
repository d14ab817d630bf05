/**
 * `npx effectively-once stepfunctions serve`: the local Step Functions endpoint alone (TestState), no stack needed, until Ctrl-C. Tests
 * and tools point an AWS SDK or CLI at it, with the `sync-` host prefix switched off.
 */
import { startStepFunctionsEndpoint } from "@effectively-once/local-cloud";
import { clients, countFlag, integrationEndpoints, parseSubcommand, UsageError } from "./cli-support";

const HELP = `Usage: npx effectively-once stepfunctions serve [--port <n>] [--region <region>] [--dynamodb-endpoint <url>] [--sqs-endpoint <url>]

Serves the local Step Functions endpoint (the TestState action) on 127.0.0.1 until Ctrl-C, and prints its URL.
--port picks the port (default: a free one); --region the region of the ARNs it makes (default AWS_REGION or
us-east-1). AWS SDKs and CLIs put the host prefix sync- before TestState's host: switch it off
(AWS SDK for JavaScript v3: disableHostPrefix: true; AWS CLI and boto3: AWS_DISABLE_HOST_PREFIX_INJECTION=true).`;

export async function serveCommand(argv: string[]): Promise<number> {
  const values = parseSubcommand(argv, "serve", HELP, { port: { type: "string" }, region: { type: "string" } });
  if (!values) return 0;
  const port = countFlag(values.port, "port");
  if (port !== undefined && port > 65535) throw new UsageError(`--port must be at most 65535, got ${port}`);
  const region = values.region ?? process.env.AWS_REGION ?? "us-east-1";
  const endpoint = await startStepFunctionsEndpoint({ port, region, integrations: clients(integrationEndpoints(values)) });
  process.stdout.write(
    `Step Functions (TestState) on ${endpoint.endpoint}, region ${region}. Ctrl-C stops.\n\n` +
      `  AWS_DISABLE_HOST_PREFIX_INJECTION=true AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local \\\n` +
      `    aws --region ${region} --endpoint-url ${endpoint.endpoint} stepfunctions test-state \\\n` +
      `    --definition '{"Type":"Pass","QueryLanguage":"JSONata","Output":"{% $states.input.a + 1 %}","End":true}' --input '{"a":1}'\n`,
  );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  await endpoint.stop();
  process.stdout.write("stopped.\n");
  return 0;
}
