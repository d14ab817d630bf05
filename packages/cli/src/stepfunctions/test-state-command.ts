/**
 * `npx effectively-once stepfunctions test-state`: one state run the way AWS's TestState API runs it, in process. stdout carries the
 * answer exactly as the API returns it (output and inspectionData members as JSON text), so the same assertions hold
 * for `aws stepfunctions test-state`.
 */
import { testState, TestStateApiError, type TestStateInput } from "@effectively-once/local-cloud";
import { clients, countFlag, integrationEndpoints, jsonFlag, parseSubcommand, readJson, UsageError } from "./cli-support";

const HELP = `Usage: npx effectively-once stepfunctions test-state --definition <file> [options]

Runs one state the way AWS's TestState API does (no account, no endpoint) and prints its answer as the API
returns it: {"status":"SUCCEEDED"|"FAILED"|"RETRIABLE"|"CAUGHT_ERROR","output":"<json>","nextState":...,
"inspectionData":{...}}. A request AWS refuses exits 2 with AWS's error code and message on stderr.

Options:
  --definition <file>              a state's definition, or a whole machine's with --state-name   (required)
  --state-name <name>              the state to test in a whole machine (nested Map/Parallel states too)
  --input <file> | --input-json <json>      the state's input (default {})
  --inspection-level <level>       INFO (default), DEBUG or TRACE: DEBUG and TRACE add inspectionData
  --variables-json <json>          variables in scope, {"name": value, ...}
  --mock-result-json <json>        the Task's, Map's or Parallel's result, instead of running it
  --mock-error <name> [--mock-cause <text>]  the error it raises instead
  --field-validation-mode <mode>   STRICT (default), PRESENT or NONE: a mocked Task result against the API's shape
  --context-json <json>            the context object (with a mock)
  --role-arn <arn>                 the execution role (needed for a Task that is not mocked)
  --retrier-retry-count <n>        retries already made by the Retry that matches the error
  --map-iteration-failure-count <n>  failed iterations of a mocked Map
  --error-caused-by-state <name>   the state inside a mocked Map/Parallel the error comes from
  --dynamodb-endpoint <url>, --sqs-endpoint <url>   clients for a Task that is not mocked (as for 'run')
  --help                           this text`;

export async function testStateCommand(argv: string[]): Promise<number> {
  const values = parseSubcommand(argv, "test-state", HELP, {
    definition: { type: "string" },
    "state-name": { type: "string" },
    input: { type: "string" },
    "input-json": { type: "string" },
    "inspection-level": { type: "string" },
    "variables-json": { type: "string" },
    "mock-result-json": { type: "string" },
    "mock-error": { type: "string" },
    "mock-cause": { type: "string" },
    "field-validation-mode": { type: "string" },
    "context-json": { type: "string" },
    "role-arn": { type: "string" },
    "retrier-retry-count": { type: "string" },
    "map-iteration-failure-count": { type: "string" },
    "error-caused-by-state": { type: "string" },
  });
  if (!values) return 0;
  if (!values.definition) throw new UsageError("--definition <file> is required (see --help)");
  if (values.input && values["input-json"] !== undefined) throw new UsageError("use either --input or --input-json, not both");
  if (values["mock-result-json"] !== undefined && values["mock-error"] !== undefined) throw new UsageError("use either --mock-result-json or --mock-error, not both");
  if (values["mock-cause"] !== undefined && values["mock-error"] === undefined) throw new UsageError("--mock-cause needs --mock-error <name>");
  const request: TestStateInput = { definition: JSON.stringify(readJson(values.definition, "definition")) };
  if (values["state-name"] !== undefined) request.stateName = values["state-name"];
  if (values.input) request.input = JSON.stringify(readJson(values.input, "input"));
  else if (values["input-json"] !== undefined) request.input = jsonFlag(values["input-json"], "input-json");
  if (values["inspection-level"] !== undefined) request.inspectionLevel = values["inspection-level"] as TestStateInput["inspectionLevel"];
  if (values["variables-json"] !== undefined) request.variables = jsonFlag(values["variables-json"], "variables-json");
  if (values["context-json"] !== undefined) request.context = jsonFlag(values["context-json"], "context-json");
  if (values["role-arn"] !== undefined) request.roleArn = values["role-arn"];
  const mode = values["field-validation-mode"] as NonNullable<TestStateInput["mock"]>["fieldValidationMode"];
  if (values["mock-result-json"] !== undefined) request.mock = { result: jsonFlag(values["mock-result-json"], "mock-result-json"), ...(mode ? { fieldValidationMode: mode } : {}) };
  else if (values["mock-error"] !== undefined) request.mock = { errorOutput: { error: values["mock-error"], ...(values["mock-cause"] !== undefined ? { cause: values["mock-cause"] } : {}) } };
  const config = {
    retrierRetryCount: countFlag(values["retrier-retry-count"], "retrier-retry-count"),
    mapIterationFailureCount: countFlag(values["map-iteration-failure-count"], "map-iteration-failure-count"),
    errorCausedByState: values["error-caused-by-state"],
  };
  if (Object.values(config).some((v) => v !== undefined)) request.stateConfiguration = JSON.parse(JSON.stringify(config));
  try {
    const answer = await testState(request, { integrations: clients(integrationEndpoints(values)), region: process.env.AWS_REGION ?? "us-east-1" });
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return 0;
  } catch (e) {
    if (e instanceof TestStateApiError) throw new UsageError(`${e.code}: ${e.message}`);
    throw e;
  }
}
