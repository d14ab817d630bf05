import { buildReview } from "../../src/terraform/review/build";
import { KNOWN_AFTER_APPLY } from "../../src/terraform/review/planned";
import { ActionBasis, type ResourceSettings } from "../../src/terraform/review/types";
import { DLQ, LEDGER, MACHINE, PIPE, QUEUE, pipe, plan, queue, stateMachine, table } from "./support/plan-fixtures";

function settingsOf(resources: Parameters<typeof plan>[0]): Record<string, ResourceSettings | undefined> {
  return Object.fromEntries(buildReview(plan(resources), { basis: ActionBasis.EmptyState }).resources.map((r) => [r.address, r.settings]));
}

describe("Section: pipeline settings", () => {
  it("reads a queue's encryption, timeouts and its redrive target from the configuration's template", () => {
    const s = settingsOf([
      { address: DLQ, actions: ["create"], after: queue({ name: "p-dlq", redrive_policy: null }), unknown: { arn: true, redrive_policy: true } },
      {
        address: QUEUE,
        actions: ["create"],
        after: queue({ redrive_policy: null }),
        unknown: { redrive_policy: true },
        expressions: {
          redrive_policy: { constant_value: '{"deadLetterTargetArn":"${aws_sqs_queue.dlq.arn}","maxReceiveCount":5}', references: ["aws_sqs_queue.dlq.arn", "aws_sqs_queue.dlq"] },
        },
      },
    ]);
    expect(s[QUEUE]).toEqual({
      kind: "queue",
      name: "p-queue",
      fifo: false,
      encryption: "SQS-managed (SSE-SQS)",
      visibilityTimeoutSeconds: 360,
      messageRetentionSeconds: 345600,
      receiveWaitTimeSeconds: 20,
      redriveTarget: "aws_sqs_queue.dlq.arn (p-dlq)",
      maxReceiveCount: 5,
      maxMessageBytes: null,
    });
    expect(s[DLQ]).toMatchObject({ redriveTarget: null, maxReceiveCount: null });
  });

  it("reads a known redrive policy and a KMS key", () => {
    const s = settingsOf([{ address: QUEUE, actions: ["update"], before: queue(), after: queue({ kms_master_key_id: "alias/q", sqs_managed_sse_enabled: false }) }]);
    expect(s[QUEUE]).toMatchObject({ encryption: "KMS alias/q", redriveTarget: "arn:aws:sqs:us-east-1:000000000000:p-dlq", maxReceiveCount: 5 });
  });

  it("reads a table's keys, SSE, TTL attribute, PITR and deletion protection", () => {
    const s = settingsOf([
      { address: LEDGER, actions: ["create"], after: table() },
      { address: "aws_dynamodb_table.plain", actions: ["create"], after: table({ name: "plain", range_key: null, server_side_encryption: [], ttl: [{ attribute_name: "", enabled: false }], point_in_time_recovery: [], deletion_protection_enabled: null }), unknown: { point_in_time_recovery: true } },
    ]);
    expect(s[LEDGER]).toEqual({
      kind: "table",
      name: "p-ledger",
      hashKey: "pk",
      rangeKey: "sk",
      billingMode: "PAY_PER_REQUEST",
      encryption: "KMS: AWS managed key (aws/dynamodb)",
      ttlAttribute: "expiresAt",
      pointInTimeRecovery: true,
      deletionProtection: true,
    });
    expect(s["aws_dynamodb_table.plain"]).toMatchObject({ rangeKey: null, encryption: "AWS owned key (default)", ttlAttribute: null, pointInTimeRecovery: false, deletionProtection: false });
  });

  it("reads the state machine's type, logging and tracing, and the pipe's invocation and batching", () => {
    const s = settingsOf([
      { address: MACHINE, actions: ["create"], after: stateMachine() },
      { address: PIPE, actions: ["create"], after: pipe({ source: null, source_parameters: [{ filter_criteria: [{ filter: [{ pattern: "{}" }, { pattern: "{}" }] }], sqs_queue_parameters: [{ batch_size: 5, maximum_batching_window_in_seconds: 2 }] }] }), unknown: { source: true } },
    ]);
    expect(s[MACHINE]).toEqual({ kind: "stateMachine", name: "p-workflow", type: "EXPRESS", logLevel: "ERROR", includeExecutionData: false, logDestination: "arn:aws:logs:us-east-1:000000000000:log-group:/p:*", tracing: true, keyDerivation: null });
    expect(s[PIPE]).toMatchObject({ source: KNOWN_AFTER_APPLY, invocationType: "REQUEST_RESPONSE", batchSize: 5, batchingWindowSeconds: 2, filters: 2, desiredState: "RUNNING" });
  });

  it("reads log retention (0 = never expires) and the function's runtime settings", () => {
    const s = settingsOf([
      { address: "aws_cloudwatch_log_group.a", actions: ["create"], after: { name: "/a", retention_in_days: 14 } },
      { address: "aws_cloudwatch_log_group.b", actions: ["create"], after: { name: "/b", retention_in_days: 0 } },
      { address: "aws_lambda_function.f", actions: ["create"], after: { function_name: "f", runtime: "nodejs22.x", architectures: ["arm64"], timeout: 10, memory_size: 256, reserved_concurrent_executions: -1, tracing_config: [{ mode: "Active" }] } },
    ]);
    expect(s["aws_cloudwatch_log_group.a"]).toEqual({ kind: "logGroup", name: "/a", retentionDays: 14 });
    expect(s["aws_cloudwatch_log_group.b"]).toEqual({ kind: "logGroup", name: "/b", retentionDays: null });
    expect(s["aws_lambda_function.f"]).toEqual({ kind: "function", name: "f", runtime: "nodejs22.x", architecture: "arm64", timeoutSeconds: 10, memoryMb: 256, reservedConcurrency: null, tracing: "Active", secondLayerIds: null, idempotencyTable: null, batchConcurrency: null });
  });
});
