/** What the `npx effectively-once stepfunctions` commands share: their usage error, flags, and reading JSON from files and flags. */
import { readFileSync } from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SQSClient } from "@aws-sdk/client-sqs";
import type { Integrations } from "@effectively-once/local-cloud/emulators";

/** Unusable arguments: `sfn` prints the message on one line of stderr and exits 2. */
export class UsageError extends Error {}

export function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read the ${what} file '${file}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`the ${what} file '${file}' is not valid JSON: ${(e as Error).message}`);
  }
}

/** A flag's JSON text, checked: `--<flag> must be JSON` otherwise. */
export function jsonFlag(value: string, flag: string): string {
  try {
    JSON.parse(value);
  } catch (e) {
    throw new UsageError(`--${flag} is not valid JSON: ${(e as Error).message}`);
  }
  return value;
}

/** A whole number of at least 0, or undefined when the flag is absent. */
export function countFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${flag} must be a whole number, got '${value}'`);
  return n;
}

/** Clients for the integrations the interpreter runs (DynamoDB, SQS), on the endpoints given. */
export function clients(endpoints: { dynamodb?: string; sqs?: string }): Integrations {
  const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? "us-east-1";
  const credentials = {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? "local",
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? "local",
  };
  const out: Integrations = {};
  if (endpoints.dynamodb) out.dynamodb = new DynamoDBClient({ region, credentials, endpoint: endpoints.dynamodb });
  if (endpoints.sqs) out.sqs = new SQSClient({ region, credentials, endpoint: endpoints.sqs });
  return out;
}

/** The endpoints of the integrations, from the flags or the environment. */
export function integrationEndpoints(values: { "dynamodb-endpoint"?: string; "sqs-endpoint"?: string }): { dynamodb?: string; sqs?: string } {
  return {
    dynamodb: values["dynamodb-endpoint"] ?? process.env.AWS_ENDPOINT_URL_DYNAMODB ?? process.env.AWS_ENDPOINT_URL,
    sqs: values["sqs-endpoint"] ?? process.env.AWS_ENDPOINT_URL_SQS ?? process.env.AWS_ENDPOINT_URL,
  };
}

/** The flags `test-state` and `serve` both take besides their own: the integrations' endpoints and --help. */
const SHARED_FLAGS = {
  "dynamodb-endpoint": { type: "string" },
  "sqs-endpoint": { type: "string" },
  help: { type: "boolean", default: false },
} as const;

/**
 * A subcommand's flags (its own and {@link SHARED_FLAGS}); it takes no positional arguments. Undefined when --help
 * asked for `help`, which is then printed.
 */
// The return type is spelled out: the declaration build cannot name the parsed type's parts (TS4058).
type SubcommandConfig<O> = { readonly args: string[]; readonly allowPositionals: true; readonly options: O & typeof SHARED_FLAGS };
export function parseSubcommand<const O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  command: string,
  help: string,
  options: O,
): ReturnType<typeof parseArgs<SubcommandConfig<O>>>["values"] | undefined {
  const config: SubcommandConfig<O> = { args: argv, allowPositionals: true, options: { ...options, ...SHARED_FLAGS } as O & typeof SHARED_FLAGS };
  const { values, positionals } = parseArgs<typeof config>(config);
  if ((values as { help?: boolean }).help) {
    process.stdout.write(`${help}\n`);
    return undefined;
  }
  if (positionals.length > 0) throw new UsageError(`${command} takes no positional arguments, got '${positionals.join(" ")}' (see --help)`);
  return values;
}
