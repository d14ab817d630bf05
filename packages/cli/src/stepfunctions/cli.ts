/**
 * Runs Step Functions definitions locally.
 *
 *   npx effectively-once stepfunctions run --definition machine.asl.json --input input.json [--log]
 *   npx effectively-once stepfunctions test-state --definition machine.asl.json --state-name Decode --input-json '{...}'
 *   npx effectively-once stepfunctions serve [--port 8083]
 *
 * `run` prints exactly one JSON object, {"status":"SUCCEEDED","output":...} or {"status":"FAILED","error":...,"cause":...}
 * (or TIMED_OUT); `test-state` prints TestState's answer as AWS's API returns it; `serve` keeps the local TestState
 * endpoint running. Exit 0 whenever the machine or state could run; non-zero with one line on stderr for unusable
 * arguments, files or definitions.
 */
import { parseArgs } from "node:util";
import {
  createStateMachine,
  DefinitionError,
  formatHistory,
  mockedStatesOf,
  MockConfigError,
  type MockedStates,
} from "@effectively-once/local-cloud/emulators";
import { clients, integrationEndpoints, readJson, UsageError } from "./cli-support";
import { serveCommand } from "./serve-command";
import { testStateCommand } from "./test-state-command";

const HELP = `Usage: npx effectively-once stepfunctions <command> [options]

Commands:
  run          run a state machine definition; prints one JSON object (this text's options below)
  test-state   run one state the way AWS's TestState API does (--help for its options)
  serve        keep the local Step Functions endpoint (TestState) running (--help for its options)

Usage: npx effectively-once stepfunctions run --definition <file> [--input <file>] [options]

Runs a state machine definition (JSONata or JSONPath) with the local interpreter and prints one JSON
object on stdout: {"status":"SUCCEEDED","output":...}, {"status":"FAILED","error":"...","cause":"..."}
or {"status":"TIMED_OUT",...}.

Options:
  --definition <file>        ASL definition (JSON)                                   (required)
  --input <file>             execution input (JSON); default {}
  --input-json <json>        execution input given inline instead of --input
  --name <name>              execution name
  --timeout-seconds <n>      execution timeout (overrides the definition's TimeoutSeconds)
  --log                      print the execution history to stderr
  --dynamodb-endpoint <url>  DynamoDB endpoint for dynamodb tasks (or AWS_ENDPOINT_URL_DYNAMODB)
  --sqs-endpoint <url>       SQS endpoint for sqs tasks (or AWS_ENDPOINT_URL_SQS)
  --mock-config <file>       Step Functions Local mock configuration (StateMachines, MockedResponses)
  --test-case <name>         the test case of --mock-config to run (required with it)
  --state-machine <name>     the state machine of --mock-config (needed when it configures several)
  --help                     this text

Region and credentials come from AWS_REGION / AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (default us-east-1
and placeholder local credentials). Lambda tasks cannot run here (no Lambda runtime): they fail naming the resource,
unless the test case of --mock-config answers them.`;

async function main(argv: string[]): Promise<number> {
  if (argv[0] === "test-state") return testStateCommand(argv.slice(1));
  if (argv[0] === "serve") return serveCommand(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      definition: { type: "string" },
      input: { type: "string" },
      "input-json": { type: "string" },
      name: { type: "string" },
      "timeout-seconds": { type: "string" },
      log: { type: "boolean", default: false },
      "dynamodb-endpoint": { type: "string" },
      "sqs-endpoint": { type: "string" },
      "mock-config": { type: "string" },
      "test-case": { type: "string" },
      "state-machine": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (positionals[0] !== "run" || positionals.length !== 1) throw new UsageError(`expected a command, run, test-state or serve (see --help), got '${positionals.join(" ")}'`);
  if (!values.definition) throw new UsageError("--definition <file> is required (see --help)");
  if (values.input && values["input-json"] !== undefined) throw new UsageError("use either --input or --input-json, not both");
  const definition = readJson(values.definition, "definition");
  let input: unknown = {};
  if (values.input) input = readJson(values.input, "input");
  else if (values["input-json"] !== undefined) {
    try {
      input = JSON.parse(values["input-json"]);
    } catch (e) {
      throw new UsageError(`--input-json is not valid JSON: ${(e as Error).message}`);
    }
  }
  let timeoutSeconds: number | undefined;
  if (values["timeout-seconds"] !== undefined) {
    timeoutSeconds = Number(values["timeout-seconds"]);
    if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError("--timeout-seconds must be a positive number");
  }
  if (values["test-case"] !== undefined && !values["mock-config"]) throw new UsageError("--test-case needs --mock-config <file>");
  let mocks: MockedStates | undefined;
  if (values["mock-config"]) {
    if (!values["test-case"]) throw new UsageError("--mock-config needs --test-case <name> (a key of StateMachines.<machine>.TestCases)");
    try {
      mocks = mockedStatesOf(readJson(values["mock-config"], "mock configuration"), values["test-case"], values["state-machine"]);
    } catch (e) {
      if (e instanceof MockConfigError) throw new UsageError(`${values["mock-config"]}: ${e.message}`);
      throw e;
    }
  }
  const machineName = values["state-machine"] ?? "local";
  const region = process.env.AWS_REGION ?? "us-east-1";
  let machine;
  try {
    machine = createStateMachine(definition, {
      name: machineName,
      arn: `arn:aws:states:${region}:000000000000:stateMachine:${machineName}`,
      integrations: clients(integrationEndpoints(values)),
      history: values.log,
      mocks,
    });
  } catch (e) {
    if (e instanceof MockConfigError) throw new UsageError(e.message);
    if (e instanceof DefinitionError) throw new UsageError(e.problems.length === 1 ? e.message : `${e.message.split("\n")[0]} ${e.problems.join("; ")}`);
    throw e;
  }
  const run = await machine.execute(input, { name: values.name, timeoutSeconds });
  if (values.log) process.stderr.write(`${formatHistory(run.events)}\n`);
  const out =
    run.status === "SUCCEEDED" ? { status: run.status, output: run.output } : { status: run.status, error: run.error, cause: run.cause };
  process.stdout.write(`${JSON.stringify(out)}\n`);
  return 0;
}

/** `effectively-once stepfunctions`: resolves with the exit code (2 with one line on stderr for unusable input). */
export async function runStepFunctionsCli(argv: readonly string[]): Promise<number> {
  try {
    return await main([...argv]);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`stepfunctions: ${message.replace(/\s*\n\s*/g, " ")}\n`);
    return 2;
  }
}
