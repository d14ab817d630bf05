import { ContractEnv } from "@effectively-once/contract";
import { readKeyDerivation } from "@effectively-once/contract";
import { describeTemplate, type ResourceReference } from "@effectively-once/local-cloud/terraform-json";
import { KNOWN_AFTER_APPLY, type ValueReader } from "./planned";
import { secondLayerFacts } from "./second-layer-risks";
import type { ResourceSettings, Shown, TableSettings, QueueSettings } from "./types";

/**
 * The settings that matter for this pipeline, read from one side of a resource. Pure: the same function reads a
 * resource's state (before) and its planned values (after), so the risk rules can compare the two.
 */
export function extractSettings(type: string, r: ValueReader, label?: (ref: ResourceReference) => string): ResourceSettings | undefined {
  switch (type) {
    case "aws_sqs_queue":
      return queueSettings(r, label);
    case "aws_dynamodb_table":
      return tableSettings(r);
    case "aws_cloudwatch_log_group": {
      const days = r.shown(["retention_in_days"]);
      return { kind: "logGroup", name: r.shown(["name"]), retentionDays: days === 0 ? null : days };
    }
    case "aws_sfn_state_machine":
      return {
        kind: "stateMachine",
        name: r.shown(["name"]),
        type: r.shown(["type"]),
        logLevel: r.shown(["logging_configuration", 0, "level"]),
        includeExecutionData: r.shown(["logging_configuration", 0, "include_execution_data"]),
        logDestination: r.shown(["logging_configuration", 0, "log_destination"]),
        tracing: r.shown(["tracing_configuration", 0, "enabled"]),
        keyDerivation: keyDerivationOf(r),
      };
    case "aws_pipes_pipe": {
      const filters = r.raw(["source_parameters", 0, "filter_criteria", 0, "filter"]);
      return {
        kind: "pipe",
        name: r.shown(["name"]),
        source: r.shown(["source"]),
        target: r.shown(["target"]),
        invocationType: r.shown(["target_parameters", 0, "step_function_state_machine_parameters", 0, "invocation_type"]),
        batchSize: r.shown(["source_parameters", 0, "sqs_queue_parameters", 0, "batch_size"]),
        batchingWindowSeconds: r.shown(["source_parameters", 0, "sqs_queue_parameters", 0, "maximum_batching_window_in_seconds"]),
        filters: Array.isArray(filters) ? filters.length : 0,
        desiredState: r.shown(["desired_state"]),
      };
    }
    case "aws_lambda_function": {
      const reserved = r.shown(["reserved_concurrent_executions"]);
      return {
        kind: "function",
        name: r.shown(["function_name"]),
        runtime: r.shown(["runtime"]),
        architecture: r.shown(["architectures", 0]),
        timeoutSeconds: r.shown(["timeout"]),
        memoryMb: r.shown(["memory_size"]),
        reservedConcurrency: reserved === -1 ? null : reserved,
        tracing: r.shown(["tracing_config", 0, "mode"]),
        ...secondLayerFacts(r),
        batchConcurrency: r.shown(["environment", 0, "variables", ContractEnv.BatchConcurrency]),
      };
    }
    default:
      return undefined;
  }
}

/**
 * The definition's key derivation record. In a plan the definition is usually unknown (it embeds ARNs), so it is
 * read from the configuration's template; the record itself never holds a reference.
 */
function keyDerivationOf(r: ValueReader): Shown {
  const known = r.raw(["definition"]);
  const text = r.template(["definition"]) ?? (typeof known === "string" ? known : undefined);
  const record = text === undefined ? undefined : readKeyDerivation(text);
  return record ? JSON.stringify(record) : null;
}

function queueSettings(r: ValueReader, label?: (ref: ResourceReference) => string): QueueSettings {
  const kms = r.raw(["kms_master_key_id"]);
  const managed = r.raw(["sqs_managed_sse_enabled"]);
  const encryption: Shown =
    typeof kms === "string" && kms ? `KMS ${kms}` : managed === true ? "SQS-managed (SSE-SQS)" : managed === undefined ? KNOWN_AFTER_APPLY : "off";
  const redrive = redriveOf(r, label);
  return {
    kind: "queue",
    name: r.shown(["name"]),
    fifo: r.shown(["fifo_queue"]),
    encryption,
    visibilityTimeoutSeconds: r.shown(["visibility_timeout_seconds"]),
    messageRetentionSeconds: r.shown(["message_retention_seconds"]),
    receiveWaitTimeSeconds: r.shown(["receive_wait_time_seconds"]),
    redriveTarget: redrive.target,
    maxReceiveCount: redrive.maxReceiveCount,
    maxMessageBytes: r.shown(["max_message_size"]),
  };
}

/** The redrive policy is a JSON string; at plan time it is often a template around the DLQ's unknown ARN. */
function redriveOf(r: ValueReader, label?: (ref: ResourceReference) => string): { target: Shown; maxReceiveCount: Shown } {
  const known = r.raw(["redrive_policy"]);
  const text = r.template(["redrive_policy"]) ?? (typeof known === "string" ? known : undefined);
  // Unknown with no configuration expression: nothing sets it here, AWS reads back an empty policy.
  if (text === undefined) return { target: null, maxReceiveCount: null };
  if (text === "") return { target: null, maxReceiveCount: null };
  try {
    const policy = JSON.parse(text) as { deadLetterTargetArn?: unknown; maxReceiveCount?: unknown };
    const target = typeof policy.deadLetterTargetArn === "string" ? describeTemplate(policy.deadLetterTargetArn, label) : null;
    const count = Number(policy.maxReceiveCount);
    return { target, maxReceiveCount: Number.isFinite(count) ? count : null };
  } catch {
    return { target: describeTemplate(text, label), maxReceiveCount: KNOWN_AFTER_APPLY };
  }
}

function tableSettings(r: ValueReader): TableSettings {
  const sse = r.raw(["server_side_encryption", 0, "enabled"]);
  const kmsKey = r.raw(["server_side_encryption", 0, "kms_key_arn"]);
  const ttlEnabled = r.raw(["ttl", 0, "enabled"]);
  // Not configured, PITR is unknown on a create: the provider reads it back from AWS, where new tables start without it.
  const pitr = r.raw(["point_in_time_recovery", 0, "enabled"]);
  return {
    kind: "table",
    name: r.shown(["name"]),
    hashKey: r.shown(["hash_key"]),
    rangeKey: r.shown(["range_key"]),
    billingMode: r.shown(["billing_mode"]),
    encryption: sse === true ? (typeof kmsKey === "string" && kmsKey ? `KMS ${kmsKey}` : "KMS: AWS managed key (aws/dynamodb)") : "AWS owned key (default)",
    ttlAttribute: ttlEnabled === true ? r.shown(["ttl", 0, "attribute_name"]) : null,
    pointInTimeRecovery: pitr === true,
    deletionProtection: r.raw(["deletion_protection_enabled"]) === true,
  };
}
