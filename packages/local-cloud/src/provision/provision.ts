import { CreateTableCommand, UpdateTimeToLiveCommand, type AttributeDefinition, type DynamoDBClient, type KeySchemaElement } from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { join } from "node:path";
import { waitForTableActive } from "../dynamodb";
import { createQueueAttributesFromTerraform, type TerraformSqsQueue } from "../sqs";
import { AttributeRegistry } from "./attributes";
import { ProvisionError } from "./errors";
import { referencedAddresses, resolveDeep, resolveString } from "./references";
import type { ResourceBody, StackFile } from "./stack-file";
import { monitoringOf, type ProvisionedMonitoring } from "./monitoring";
import { notEmulatedSummary } from "./support";

interface LocalQueue {
  readonly address: string;
  readonly name: string;
  readonly url: string;
  readonly arn: string;
}

interface LocalTable {
  readonly address: string;
  readonly name: string;
  readonly arn: string;
  /** TTL attribute (epoch seconds) when the table has an enabled `ttl` block. */
  readonly ttlAttribute?: string;
}

interface LocalFunction {
  readonly address: string;
  readonly name: string;
  readonly arn: string;
  readonly handler: string;
  readonly runtime: string;
  /** The deployment package, as cdktf wrote it. */
  readonly zipPath: string;
  readonly environment: Record<string, string>;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly reservedConcurrency?: number;
  /** `logging_config.application_log_level` of a JSON-format function: Lambda's log-level filter applies. */
  readonly applicationLogLevel?: string;
}

interface LocalStateMachine {
  readonly address: string;
  readonly name: string;
  readonly arn: string;
  readonly type: string;
  readonly roleArn: string;
  /** The definition with every Terraform reference resolved to local names, ARNs and URLs. */
  readonly definition: Record<string, unknown>;
  /** Its `logging_configuration`, when it has one with a log group destination. */
  readonly logging?: { readonly level: string; readonly includeExecutionData: boolean; readonly logGroupArn: string };
}

interface LocalPipe {
  readonly address: string;
  readonly name: string;
  readonly arn: string;
  readonly source: LocalQueue;
  readonly targetArn: string;
  readonly batchSize: number;
  readonly maximumBatchingWindowSeconds: number;
  readonly filterPatterns: string[];
  readonly inputTemplate?: string;
  readonly invocationType: string;
  readonly desiredState: string;
}

/** Everything the local cloud runs, with references resolved, plus what it does not run. */
export interface ProvisionedStack {
  readonly region: string;
  readonly queues: LocalQueue[];
  readonly tables: LocalTable[];
  readonly functions: LocalFunction[];
  readonly stateMachines: LocalStateMachine[];
  readonly pipes: LocalPipe[];
  /** The names of the stack's CloudWatch Logs groups (the state machines write their execution logs there). */
  readonly logGroups: string[];
  /** The stack's log streams (`aws_cloudwatch_log_stream`), which PutLogEvents writes to: the workflow's fate metrics. */
  readonly logStreams: { readonly logGroupName: string; readonly name: string }[];
  /** The stack's Terraform outputs with local values: the same names `cdktf deploy --outputs-file` writes. */
  readonly outputs: Record<string, unknown>;
  /** One line naming what the stack holds that is not emulated; undefined when everything is. */
  readonly notEmulated?: string;
  /** The metric alarms, log metric filters and schedules, resolved, for the local alarms. */
  readonly monitoring: ProvisionedMonitoring;
}

type Resources = StackFile["resources"];

function entries(resources: Resources, type: string): [string, ResourceBody][] {
  return Object.entries(resources[type] ?? {});
}

/** Queues in an order where every queue comes after the queues its attributes refer to (DLQ before source). */
function queuesInDependencyOrder(resources: Resources): [string, ResourceBody][] {
  const pending = new Map(entries(resources, "aws_sqs_queue"));
  const ordered: [string, ResourceBody][] = [];
  while (pending.size > 0) {
    const ready = [...pending].find(([, body]) =>
      referencedAddresses(body).every((a) => !a.startsWith("aws_sqs_queue.") || !pending.has(a.slice("aws_sqs_queue.".length))),
    );
    if (!ready) throw new ProvisionError(`queues ${[...pending.keys()].join(", ")} refer to each other in a cycle`);
    ordered.push(ready);
    pending.delete(ready[0]);
  }
  return ordered;
}

async function createQueues(stack: StackFile, registry: AttributeRegistry, sqs: SQSClient): Promise<LocalQueue[]> {
  const queues: LocalQueue[] = [];
  for (const [id, raw] of queuesInDependencyOrder(stack.resources)) {
    const address = `aws_sqs_queue.${id}`;
    const body = resolveDeep(raw, registry.lookup, address) as TerraformSqsQueue;
    const name = registry.nameOf("aws_sqs_queue", id);
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: createQueueAttributesFromTerraform(body) }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ["QueueArn"] }));
    const queue = { address, name, url: QueueUrl!, arn: Attributes!.QueueArn! };
    registry.record("aws_sqs_queue", id, { url: queue.url, id: queue.url, arn: queue.arn, name });
    queues.push(queue);
  }
  return queues;
}

/** The queue-attribute resources, each set as one attribute of its queue as Terraform does (SetQueueAttributes). */
const QUEUE_ATTRIBUTE_RESOURCES = [
  // Stored, not enforced: `GetQueueAttributes` (the operator CLI's `dlq guard`) reads what a deployed queue holds.
  { type: "aws_sqs_queue_policy", field: "policy", attribute: "Policy" },
  // Enforced by the local SQS (sqs/fidelity/redrive-allow.mjs): which queues may name this one as their DLQ.
  { type: "aws_sqs_queue_redrive_allow_policy", field: "redrive_allow_policy", attribute: "RedriveAllowPolicy" },
] as const;

/** `aws_sqs_queue_policy` and `aws_sqs_queue_redrive_allow_policy`: set as the queue's attribute, as Terraform does. */
async function applyQueuePolicies(stack: StackFile, registry: AttributeRegistry, sqs: SQSClient, queues: readonly LocalQueue[]): Promise<void> {
  for (const { type, field, attribute } of QUEUE_ATTRIBUTE_RESOURCES) {
    for (const [id, raw] of entries(stack.resources, type)) {
      const address = `${type}.${id}`;
      const body = resolveDeep(raw, registry.lookup, address);
      const queue = queues.find((q) => q.url === body.queue_url);
      if (!queue) throw new ProvisionError(`${address}: queue_url ${String(body.queue_url)} is not a queue of this stack`);
      if (typeof body[field] !== "string") throw new ProvisionError(`${address}: ${field} must be a JSON string`);
      await sqs.send(new SetQueueAttributesCommand({ QueueUrl: queue.url, Attributes: { [attribute]: body[field] as string } }));
    }
  }
}

async function createTables(stack: StackFile, registry: AttributeRegistry, dynamodb: DynamoDBClient): Promise<LocalTable[]> {
  const tables: LocalTable[] = [];
  for (const [id, raw] of entries(stack.resources, "aws_dynamodb_table")) {
    const address = `aws_dynamodb_table.${id}`;
    const body = resolveDeep(raw, registry.lookup, address);
    const name = registry.nameOf("aws_dynamodb_table", id);
    const keySchema: KeySchemaElement[] = [{ AttributeName: body.hash_key as string, KeyType: "HASH" }];
    if (typeof body.range_key === "string") keySchema.push({ AttributeName: body.range_key, KeyType: "RANGE" });
    const attributes = (body.attribute as { name: string; type: string }[] | undefined) ?? [];
    if (attributes.length === 0) throw new ProvisionError(`${address} has no attribute definitions`);
    const globalIndexes = (body.global_secondary_index as { name: string; hash_key: string; range_key?: string; projection_type?: string }[] | undefined) ?? [];
    await dynamodb.send(
      new CreateTableCommand({
        TableName: name,
        BillingMode: "PAY_PER_REQUEST",
        KeySchema: keySchema,
        AttributeDefinitions: attributes.map((a): AttributeDefinition => ({ AttributeName: a.name, AttributeType: a.type as "S" | "N" | "B" })),
        GlobalSecondaryIndexes: globalIndexes.length
          ? globalIndexes.map((g) => ({
              IndexName: g.name,
              KeySchema: [{ AttributeName: g.hash_key, KeyType: "HASH" }, ...(g.range_key ? [{ AttributeName: g.range_key, KeyType: "RANGE" as const }] : [])],
              Projection: { ProjectionType: (g.projection_type ?? "ALL") as "ALL" },
            }))
          : undefined,
      }),
    );
    // dynalite may report CREATING for one tick: a first write in that window would fail.
    await waitForTableActive(dynamodb, name);
    const arn = registry.attribute("aws_dynamodb_table", id, "arn", address);
    const ttl = body.ttl as { attribute_name?: string; enabled?: boolean } | undefined;
    const ttlAttribute = ttl?.enabled !== false && ttl?.attribute_name ? ttl.attribute_name : undefined;
    // As Terraform does after CreateTable: DescribeTimeToLive then reports it (the TTL sweeper does the expiring).
    if (ttlAttribute) await dynamodb.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: ttlAttribute } }));
    tables.push({ address, name, arn, ttlAttribute });
  }
  return tables;
}

function functionsOf(stack: StackFile, registry: AttributeRegistry): LocalFunction[] {
  return entries(stack.resources, "aws_lambda_function").map(([id, raw]) => {
    const address = `aws_lambda_function.${id}`;
    const body = resolveDeep(raw, registry.lookup, address);
    if (typeof body.filename !== "string") throw new ProvisionError(`${address}: only zip deployment packages (filename) are emulated, not images or S3 code`);
    const variables = ((body.environment as { variables?: Record<string, string> } | undefined)?.variables ?? {}) as Record<string, string>;
    const logging = (Array.isArray(body.logging_config) ? body.logging_config[0] : body.logging_config) as Record<string, unknown> | undefined;
    return {
      address,
      name: registry.nameOf("aws_lambda_function", id),
      arn: registry.attribute("aws_lambda_function", id, "arn", address),
      handler: (body.handler as string) ?? "index.handler",
      runtime: (body.runtime as string) ?? "nodejs22.x",
      zipPath: join(stack.dir, body.filename),
      environment: variables,
      timeoutSeconds: (body.timeout as number) ?? 3,
      memoryMb: (body.memory_size as number) ?? 128,
      reservedConcurrency: typeof body.reserved_concurrent_executions === "number" && body.reserved_concurrent_executions >= 0 ? body.reserved_concurrent_executions : undefined,
      applicationLogLevel: logging?.log_format === "JSON" && typeof logging.application_log_level === "string" ? logging.application_log_level : undefined,
    };
  });
}

function stateMachinesOf(stack: StackFile, registry: AttributeRegistry): LocalStateMachine[] {
  return entries(stack.resources, "aws_sfn_state_machine").map(([id, raw]) => {
    const address = `aws_sfn_state_machine.${id}`;
    const text = resolveString(raw.definition as string, registry.lookup, `${address}.definition`);
    let definition: Record<string, unknown>;
    try {
      definition = JSON.parse(text);
    } catch (error) {
      throw new ProvisionError(`${address}.definition is not JSON after resolving references: ${(error as Error).message}`, { cause: error });
    }
    return {
      address,
      name: registry.nameOf("aws_sfn_state_machine", id),
      arn: registry.attribute("aws_sfn_state_machine", id, "arn", address),
      type: (raw.type as string) ?? "STANDARD",
      roleArn: resolveString(raw.role_arn as string, registry.lookup, address),
      definition,
      logging: loggingOf(raw, registry, address),
    };
  });
}

function loggingOf(raw: ResourceBody, registry: AttributeRegistry, address: string): LocalStateMachine["logging"] {
  const config = (Array.isArray(raw.logging_configuration) ? raw.logging_configuration[0] : raw.logging_configuration) as Record<string, unknown> | undefined;
  if (!config || typeof config.log_destination !== "string") return undefined;
  return {
    level: typeof config.level === "string" ? config.level : "OFF",
    includeExecutionData: config.include_execution_data === true,
    logGroupArn: resolveString(config.log_destination, registry.lookup, `${address}.logging_configuration`),
  };
}

/** What the local pipe reads of an `aws_pipes_pipe`'s parameters (Terraform's attribute names). */
interface PipeSourceParameters {
  readonly sqs_queue_parameters?: { readonly batch_size?: number; readonly maximum_batching_window_in_seconds?: number };
  readonly filter_criteria?: { readonly filter?: readonly { readonly pattern: string }[] };
}
interface PipeTargetParameters {
  readonly input_template?: string;
  readonly step_function_state_machine_parameters?: { readonly invocation_type: string };
}

function pipesOf(stack: StackFile, registry: AttributeRegistry, queues: LocalQueue[]): LocalPipe[] {
  return entries(stack.resources, "aws_pipes_pipe").map(([id, raw]) => {
    const address = `aws_pipes_pipe.${id}`;
    const body = resolveDeep(raw, registry.lookup, address);
    const source = queues.find((q) => q.arn === body.source);
    if (!source) throw new ProvisionError(`${address}: source ${String(body.source)} is not an SQS queue of this stack; only SQS sources are emulated`);
    const sourceParameters = (body.source_parameters ?? {}) as PipeSourceParameters;
    const sqsParameters = sourceParameters.sqs_queue_parameters ?? {};
    const targetParameters = (body.target_parameters ?? {}) as PipeTargetParameters;
    const sfnParameters = targetParameters.step_function_state_machine_parameters;
    if (!sfnParameters) throw new ProvisionError(`${address}: only Step Functions targets are emulated`);
    return {
      address,
      name: registry.nameOf("aws_pipes_pipe", id),
      arn: registry.attribute("aws_pipes_pipe", id, "arn", address),
      source,
      targetArn: body.target as string,
      batchSize: sqsParameters.batch_size ?? 10,
      maximumBatchingWindowSeconds: sqsParameters.maximum_batching_window_in_seconds ?? 0,
      filterPatterns: (sourceParameters.filter_criteria?.filter ?? []).map((f) => f.pattern),
      inputTemplate: targetParameters.input_template,
      invocationType: sfnParameters.invocation_type,
      desiredState: (body.desired_state as string) ?? "RUNNING",
    };
  });
}

/**
 * Creates the stack's queues and tables in the emulators and resolves everything else (functions, state
 * machines, pipes, outputs) to local names, ARNs and URLs. A reference it cannot resolve is an error naming the
 * resource and the attribute.
 */
export async function provisionStack(stack: StackFile, clients: { sqs: SQSClient; dynamodb: DynamoDBClient }): Promise<ProvisionedStack> {
  const registry = new AttributeRegistry(stack.resources, stack.data, stack.region);
  const queues = await createQueues(stack, registry, clients.sqs);
  await applyQueuePolicies(stack, registry, clients.sqs, queues);
  const tables = await createTables(stack, registry, clients.dynamodb);
  const functions = functionsOf(stack, registry);
  const stateMachines = stateMachinesOf(stack, registry);
  const pipes = pipesOf(stack, registry, queues);
  const outputs = Object.fromEntries(Object.entries(stack.outputs).map(([name, { value }]) => [name, resolveDeep(value, registry.lookup, `output.${name}`)]));
  const logGroups = entries(stack.resources, "aws_cloudwatch_log_group").map(([id]) => registry.nameOf("aws_cloudwatch_log_group", id));
  const logStreams = entries(stack.resources, "aws_cloudwatch_log_stream").map(([id, raw]) => {
    const body = resolveDeep(raw, registry.lookup, `aws_cloudwatch_log_stream.${id}`) as { log_group_name: string; name: string };
    return { logGroupName: body.log_group_name, name: body.name };
  });
  const monitoring = monitoringOf(stack, registry);
  return { region: stack.region, queues, tables, functions, stateMachines, pipes, logGroups, logStreams, outputs, notEmulated: notEmulatedSummary(stack.resources), monitoring };
}
