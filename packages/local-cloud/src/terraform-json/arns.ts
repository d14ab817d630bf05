/**
 * The ARNs and queue URLs AWS assigns to a stack's resources, by Terraform type and name, in the format of the Service
 * Authorization Reference: one table for everything that needs them without AWS (the local cloud's provisioning, the
 * offline plan's seeded state, the deployer's policy and the IAM simulator). A synthesized stack leaves the account
 * (and, from the provider, the partition) to plan time: the caller says which.
 */
import { dnsSuffixOfPartition } from "@effectively-once/contract";

/** The account, region and partition ARNs are formed in. */
export interface ArnEnv {
  readonly partition: string;
  readonly account: string;
  readonly region: string;
}

/**
 * The ARN of a resource of a Terraform type with the given name (a name, or a pattern such as `payments-*`).
 * Undefined for a type this table does not know or that has no ARN of its own (a queue policy).
 */
export function arnOf(type: string, name: string, env: ArnEnv): string | undefined {
  const { partition: p, account: a, region: r } = env;
  switch (type) {
    case "aws_sqs_queue":
      return `arn:${p}:sqs:${r}:${a}:${name}`;
    case "aws_dynamodb_table":
      return `arn:${p}:dynamodb:${r}:${a}:table/${name}`;
    case "aws_lambda_function":
      return `arn:${p}:lambda:${r}:${a}:function:${name}`;
    case "aws_sfn_state_machine":
      return `arn:${p}:states:${r}:${a}:stateMachine:${name}`;
    case "aws_iam_role":
      return `arn:${p}:iam::${a}:role/${name}`;
    case "aws_iam_policy":
      return `arn:${p}:iam::${a}:policy/${name}`;
    case "aws_cloudwatch_log_group":
      return `arn:${p}:logs:${r}:${a}:log-group:${name}`;
    case "aws_pipes_pipe":
      return `arn:${p}:pipes:${r}:${a}:pipe/${name}`;
    case "aws_cloudwatch_metric_alarm":
      return `arn:${p}:cloudwatch:${r}:${a}:alarm:${name}`;
    case "aws_cloudwatch_dashboard":
      return `arn:${p}:cloudwatch::${a}:dashboard/${name}`;
    case "aws_sns_topic":
      return `arn:${p}:sns:${r}:${a}:${name}`;
    case "aws_cloudwatch_event_rule":
      // A rule on the default event bus.
      return `arn:${p}:events:${r}:${a}:rule/${name}`;
    case "aws_scheduler_schedule":
      // The construct's schedules live in Scheduler's default group.
      return `arn:${p}:scheduler:${r}:${a}:schedule/default/${name}`;
    default:
      return undefined;
  }
}

/** What `aws_lambda_function.x.invoke_arn` holds: the API Gateway path that invokes the function. */
export function lambdaInvokeArn(functionArn: string, env: Pick<ArnEnv, "partition" | "region">): string {
  return `arn:${env.partition}:apigateway:${env.region}:lambda:path/2015-03-31/functions/${functionArn}/invocations`;
}

/** The queue URL AWS gives a queue (what `aws_sqs_queue.x.url` holds). */
export function queueUrlOf(name: string, env: ArnEnv): string {
  return `https://sqs.${env.region}.${dnsSuffixOfPartition(env.partition)}/${env.account}/${name}`;
}
