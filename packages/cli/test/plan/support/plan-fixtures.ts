import type { ConfigExpressions, JsonObject, PlanJson, PlanResourceChange, UnknownMarks } from "../../../src/terraform/plan-json";

/** Small hand-written `terraform show -json` plans: only the fields the review reads. */

export interface FixtureResource {
  readonly address: string;
  readonly actions: readonly string[];
  readonly before?: JsonObject | null;
  readonly after?: JsonObject | null;
  readonly unknown?: UnknownMarks;
  readonly expressions?: ConfigExpressions;
  readonly replacePaths?: readonly (readonly string[])[];
}

export function plan(resources: readonly FixtureResource[], region = "us-east-1"): PlanJson {
  const changes: PlanResourceChange[] = resources.map((r) => {
    const [type, name] = r.address.split(".");
    return {
      address: r.address,
      mode: "managed",
      type,
      name,
      provider_name: "registry.terraform.io/hashicorp/aws",
      change: {
        actions: r.actions,
        before: r.before ?? null,
        after: r.after === undefined ? null : r.after,
        after_unknown: r.unknown ?? {},
        ...(r.replacePaths ? { replace_paths: r.replacePaths } : {}),
      },
    } as PlanResourceChange;
  });
  return {
    format_version: "1.2",
    terraform_version: "1.11.4",
    resource_changes: changes,
    configuration: {
      provider_config: { aws: { expressions: { region: { constant_value: region } } } },
      root_module: {
        resources: resources.map((r) => {
          const [type, name] = r.address.split(".");
          return { address: r.address, mode: "managed" as const, type, name, expressions: r.expressions ?? {}, schema_version: 0 };
        }),
      },
    },
  };
}

export const LEDGER = "aws_dynamodb_table.ledger";
export const IDEMPOTENCY = "aws_dynamodb_table.idempotency";
export const QUEUE = "aws_sqs_queue.queue";
export const DLQ = "aws_sqs_queue.dlq";
export const MACHINE = "aws_sfn_state_machine.workflow";
export const PIPE = "aws_pipes_pipe.pipe";
export const ROLE = "aws_iam_role.workflow";
export const POLICY = "aws_iam_role_policy.workflow";

export function table(overrides: JsonObject = {}): JsonObject {
  return {
    name: "p-ledger",
    hash_key: "pk",
    range_key: "sk",
    billing_mode: "PAY_PER_REQUEST",
    server_side_encryption: [{ enabled: true, kms_key_arn: null }],
    ttl: [{ attribute_name: "expiresAt", enabled: true }],
    point_in_time_recovery: [{ enabled: true }],
    deletion_protection_enabled: true,
    ...overrides,
  };
}

export function queue(overrides: JsonObject = {}): JsonObject {
  return {
    name: "p-queue",
    fifo_queue: false,
    sqs_managed_sse_enabled: true,
    kms_master_key_id: null,
    visibility_timeout_seconds: 360,
    message_retention_seconds: 345600,
    receive_wait_time_seconds: 20,
    redrive_policy: JSON.stringify({ deadLetterTargetArn: "arn:aws:sqs:us-east-1:000000000000:p-dlq", maxReceiveCount: 5 }),
    ...overrides,
  };
}

export function stateMachine(overrides: JsonObject = {}): JsonObject {
  return {
    name: "p-workflow",
    type: "EXPRESS",
    logging_configuration: [{ level: "ERROR", include_execution_data: false, log_destination: "arn:aws:logs:us-east-1:000000000000:log-group:/p:*" }],
    tracing_configuration: [{ enabled: true }],
    ...overrides,
  };
}

export function pipe(overrides: JsonObject = {}): JsonObject {
  return {
    name: "p-pipe",
    source: "arn:aws:sqs:us-east-1:000000000000:p-queue",
    target: "arn:aws:states:us-east-1:000000000000:stateMachine:p-workflow",
    desired_state: "RUNNING",
    source_parameters: [{ filter_criteria: [], sqs_queue_parameters: [{ batch_size: 10, maximum_batching_window_in_seconds: 1 }] }],
    target_parameters: [{ step_function_state_machine_parameters: [{ invocation_type: "REQUEST_RESPONSE" }] }],
    ...overrides,
  };
}

export interface Statement {
  Sid?: string;
  Effect: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Principal?: unknown;
  Condition?: unknown;
}

export function policyDoc(statements: readonly Statement[]): string {
  return JSON.stringify({ Version: "2012-10-17", Statement: statements });
}

export function rolePolicy(statements: readonly Statement[], role = "p-workflow-role"): JsonObject {
  return { name: "least-privilege", role, policy: policyDoc(statements) };
}

export function role(service = "states.amazonaws.com", name = "p-workflow-role"): JsonObject {
  return { name, assume_role_policy: policyDoc([{ Effect: "Allow", Principal: { Service: service }, Action: "sts:AssumeRole" }]) };
}

/** An update of one resource from `before` to `after`. */
export function update(address: string, before: JsonObject, after: JsonObject, actions: readonly string[] = ["update"]): FixtureResource {
  return { address, actions, before, after };
}
