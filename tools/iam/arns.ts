/**
 * Where the IAM tools say which account, region and partition a stack's ARNs live in. A synthesized stack leaves
 * the account (and, from the provider, the partition) to plan time; the tools take them as inputs.
 */
export interface ArnEnv {
  readonly partition: string;
  readonly account: string;
  readonly region: string;
}

/** The partition AWS uses for a region: `aws-cn` for cn-*, `aws-us-gov` for us-gov-*, else `aws`. */
export function partitionOf(region: string): string {
  if (region.startsWith("cn-")) return "aws-cn";
  if (region.startsWith("us-gov-")) return "aws-us-gov";
  return "aws";
}

/**
 * The ARN of a resource of a Terraform type with the given name (a name, or a pattern such as `payments-*`), in the
 * format of the Service Authorization Reference. Undefined for a type that has no ARN of its own (a queue policy).
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
    default:
      return undefined;
  }
}

/** The queue URL AWS gives a queue (what `aws_sqs_queue.x.url` holds). */
export function queueUrlOf(name: string, env: ArnEnv): string {
  const host = env.partition === "aws-cn" ? `sqs.${env.region}.amazonaws.com.cn` : `sqs.${env.region}.amazonaws.com`;
  return `https://${host}/${env.account}/${name}`;
}
