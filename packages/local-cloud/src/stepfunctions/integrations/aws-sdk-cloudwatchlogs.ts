/**
 * `arn:aws:states:::aws-sdk:cloudwatchlogs:putLogEvents`: CloudWatch Logs PutLogEvents (PascalCase parameters, as AWS
 * SDK integrations take them), the workflow's fate metrics. Errors are spelled `CloudWatchLogs.<Exception>` as AWS SDK
 * integrations spell them; an unmodeled one is `CloudWatchLogs.CloudWatchLogsException`, no HTTP answer
 * `CloudWatchLogs.SdkClientException`.
 */
import { StatesError, StatesErrorName } from "../errors";
import { sdkErrorParts, stripMetadata } from "./aws-errors";
import { missingClient, requireObject } from "./requests";
import type { TaskHandler } from "./types";
import type { DynamoDbSender as JsonSender } from "../types";

/** The exceptions CloudWatch Logs' model declares for PutLogEvents. */
const MODELED = new Set(["InvalidParameterException", "InvalidSequenceTokenException", "DataAlreadyAcceptedException", "ResourceNotFoundException", "ServiceUnavailableException", "UnrecognizedClientException"]);

/** The one action served: its class name is what a JSON-protocol client sends as the operation. */
class PutLogEventsCommand {
  constructor(readonly input: object) {}
}

/** The request as the SDK's model spells it (camelCase members) from the Task's PascalCase Arguments. */
function request(p: Record<string, unknown>, resourceArn: string): object {
  const events = p.LogEvents;
  if (!Array.isArray(events)) throw new StatesError(StatesErrorName.Runtime, `The resource '${resourceArn}' needs LogEvents, a list of { Timestamp, Message }.`);
  return {
    logGroupName: p.LogGroupName,
    logStreamName: p.LogStreamName,
    logEvents: events.map((e: Record<string, unknown>) => ({ timestamp: e.Timestamp, message: e.Message })),
  };
}

function logsError(err: unknown): StatesError {
  if (err instanceof StatesError) return err;
  const p = sdkErrorParts(err);
  if (p.status === undefined) return new StatesError("CloudWatchLogs.SdkClientException", `Unable to execute HTTP request: ${p.message}`, { cause: err });
  const error = MODELED.has(p.name) ? `CloudWatchLogs.${p.name}` : "CloudWatchLogs.CloudWatchLogsException";
  return new StatesError(error, `${p.message} (Service: CloudWatchLogs, Status Code: ${p.status}, Request ID: ${p.requestId})`, { cause: err });
}

export function awsSdkCloudWatchLogsHandler(action: string): TaskHandler {
  return {
    resourceType: "aws-sdk:cloudwatchlogs",
    resource: action,
    async invoke(parameters, call) {
      if (action !== "putLogEvents") throw new StatesError(StatesErrorName.Runtime, `The local interpreter serves aws-sdk:cloudwatchlogs:putLogEvents only, not '${action}'.`);
      const client = call.integrations.logs as JsonSender | undefined;
      if (!client) throw missingClient(call.resourceArn, "integrations.logs", "the local cloud's Logs endpoint");
      const input = request(requireObject(parameters, call.resourceArn), call.resourceArn);
      try {
        return stripMetadata((await client.send(new PutLogEventsCommand(input), { abortSignal: call.signal })) as object);
      } catch (err) {
        if (call.signal.aborted) throw err;
        throw logsError(err);
      }
    },
  };
}
