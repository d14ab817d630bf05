import { CloudWatchClient, DashboardNotFoundError, GetDashboardCommand } from "@aws-sdk/client-cloudwatch";
import { CloudWatchLogsClient, DescribeLogGroupsCommand } from "@aws-sdk/client-cloudwatch-logs";
import { DescribeTableCommand, DynamoDBClient, ListTablesCommand, ResourceNotFoundException as TableNotFound } from "@aws-sdk/client-dynamodb";
import { GetRoleCommand, IAMClient, NoSuchEntityException } from "@aws-sdk/client-iam";
import { GetFunctionCommand, LambdaClient, ResourceNotFoundException as FunctionNotFound } from "@aws-sdk/client-lambda";
import { DescribePipeCommand, ListPipesCommand, NotFoundException as PipeNotFound, PipesClient } from "@aws-sdk/client-pipes";
import { DescribeStateMachineCommand, SFNClient, StateMachineDoesNotExist } from "@aws-sdk/client-sfn";
import { GetQueueUrlCommand, QueueDoesNotExist, SQSClient } from "@aws-sdk/client-sqs";
import type { ClientConfig } from "./client-config";
import { networkCode } from "./errors";
import { NameType, type NameType as Kind } from "./names";

/** Whether a name the stack creates already exists in the account (and region, for regional names). */
export interface NameReader {
  exists(kind: Kind, name: string, arn: string): Promise<boolean>;
  /** How many DynamoDB tables the region holds (ListTables, every page). */
  tableCount(): Promise<number>;
  /** Whether EventBridge Pipes answers in the region (ListPipes); false when its endpoint does not resolve. */
  pipesAnswer(): Promise<boolean>;
}

/**
 * An answer → true; the service's not-found error → false; anything else is rethrown. The error is known by its class
 * or by its name: services that keep their query-protocol codes (SQS, CloudWatch) send that code, which the SDK
 * then uses as the error's name (`AWS.SimpleQueueService.NonExistentQueue`, `ResourceNotFound`).
 */
async function found(call: () => Promise<unknown>, notFound: (error: unknown) => boolean, names: readonly string[] = []): Promise<boolean> {
  try {
    await call();
    return true;
  } catch (error) {
    if (notFound(error) || names.includes((error as { name?: string }).name ?? "")) return false;
    throw error;
  }
}

/** The SDK clients, one per service; `endpointOf` lets a test point one service elsewhere (e.g. an unresolvable host). */
export function awsNameReader(config: (service: string) => ClientConfig): NameReader {
  const iam = new IAMClient(config("iam"));
  const sqs = new SQSClient(config("sqs"));
  const dynamodb = new DynamoDBClient(config("dynamodb"));
  const cloudwatch = new CloudWatchClient(config("monitoring"));
  const logs = new CloudWatchLogsClient(config("logs"));
  const lambda = new LambdaClient(config("lambda"));
  const sfn = new SFNClient(config("states"));
  const pipes = new PipesClient(config("pipes"));
  const lookups: Readonly<Record<Kind, (name: string, arn: string) => Promise<boolean>>> = {
    [NameType.Role]: (name) => found(() => iam.send(new GetRoleCommand({ RoleName: name })), (e) => e instanceof NoSuchEntityException),
    [NameType.Queue]: (name) => found(() => sqs.send(new GetQueueUrlCommand({ QueueName: name })), (e) => e instanceof QueueDoesNotExist, ["QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue"]),
    [NameType.Table]: (name) => found(() => dynamodb.send(new DescribeTableCommand({ TableName: name })), (e) => e instanceof TableNotFound),
    [NameType.Dashboard]: (name) => found(() => cloudwatch.send(new GetDashboardCommand({ DashboardName: name })), (e) => e instanceof DashboardNotFoundError, ["ResourceNotFound", "DashboardNotFoundError"]),
    // A prefix search: exists only when a group has exactly this name.
    [NameType.LogGroup]: async (name) => {
      const out = await logs.send(new DescribeLogGroupsCommand({ logGroupNamePrefix: name, limit: 50 }));
      return (out.logGroups ?? []).some((g) => g.logGroupName === name);
    },
    [NameType.Function]: (name) => found(() => lambda.send(new GetFunctionCommand({ FunctionName: name })), (e) => e instanceof FunctionNotFound),
    [NameType.StateMachine]: (_name, arn) => found(() => sfn.send(new DescribeStateMachineCommand({ stateMachineArn: arn })), (e) => e instanceof StateMachineDoesNotExist),
    // Where Pipes has no endpoint (pipesAnswer fails that region), no pipe of that name exists either.
    [NameType.Pipe]: (name) => found(() => pipes.send(new DescribePipeCommand({ Name: name })), (e) => e instanceof PipeNotFound || networkCode(e) === "ENOTFOUND"),
  };
  return {
    exists: (kind, name, arn) => lookups[kind](name, arn),
    async tableCount() {
      let count = 0;
      let ExclusiveStartTableName: string | undefined;
      do {
        const page = await dynamodb.send(new ListTablesCommand({ ExclusiveStartTableName }));
        count += page.TableNames?.length ?? 0;
        ExclusiveStartTableName = page.LastEvaluatedTableName;
      } while (ExclusiveStartTableName);
      return count;
    },
    async pipesAnswer() {
      try {
        await pipes.send(new ListPipesCommand({ Limit: 1 }));
        return true;
      } catch (error) {
        // No endpoint in the region: the SDK cannot resolve pipes.<region>.amazonaws.com.
        if (networkCode(error) === "ENOTFOUND") return false;
        throw error;
      }
    },
  };
}
