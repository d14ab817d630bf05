import { existsSync } from "node:fs";
import { join } from "node:path";
import { DlqReason, FATE_METRICS_NAMESPACE, FateMetric, FUNCTION_FATE_METRICS, InvocationErrorMessage, OutputName, WORKFLOW_FATE_METRICS } from "@effectively-once/contract";
import { referenceTo, resourceNamed, resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

describe("Construct: IdempotentPipeline (default payments stack)", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack.cleanup());

  describe("pipe", () => {
    it("calls the EXPRESS workflow synchronously with batches of 10 and a 1 s window", () => {
      const { json } = stack;
      const pipe = resourceNamed(json, "aws_pipes_pipe", "test-pipe");
      expect(pipe).toMatchObject({
        source: referenceTo(json, "aws_sqs_queue", "test-queue", "arn"),
        target: referenceTo(json, "aws_sfn_state_machine", "test-workflow", "arn"),
        desired_state: "RUNNING",
        source_parameters: { sqs_queue_parameters: { batch_size: 10, maximum_batching_window_in_seconds: 1 } },
        target_parameters: { step_function_state_machine_parameters: { invocation_type: "REQUEST_RESPONSE" } },
      });
      expect((pipe.source_parameters as Record<string, unknown>).filter_criteria).toBeUndefined();
    });
  });

  describe("state machine", () => {
    it("is EXPRESS, logs to its own log group and is traced", () => {
      const { json } = stack;
      const sm = resourceNamed(json, "aws_sfn_state_machine", "test-workflow");
      expect(sm).toMatchObject({
        type: "EXPRESS",
        logging_configuration: { level: "ERROR", include_execution_data: false, log_destination: `${referenceTo(json, "aws_cloudwatch_log_group", "test-workflow", "arn")}:*` },
        tracing_configuration: { enabled: true },
      });
      expect(resourceNamed(json, "aws_cloudwatch_log_group", "test-workflow")).toMatchObject({ retention_in_days: 14 });
    });

    it("is a JSONata machine whose first task per record is the conditional putItem claim on the ledger", () => {
      const { json } = stack;
      const definition = JSON.parse(resourceNamed(json, "aws_sfn_state_machine", "test-workflow").definition as string);
      expect(definition.QueryLanguage).toBe("JSONata");
      // One invocation per batch, the default: its worst batch is 183 s (timing.ts; batch-rules.ts derives it).
      expect(definition.TimeoutSeconds).toBe(190);
      // Before the per-record Map only a Pass (grouping exact duplicates) runs: no Task at all.
      expect(definition.States[definition.StartAt].Type).toBe("Pass");
      const processor = definition.States[definition.States[definition.StartAt].Next].ItemProcessor;
      // Walk the record path from its start to the first Task: nothing before it may be a Lambda.
      let name: string = processor.StartAt;
      const seen: string[] = [];
      while (processor.States[name].Type !== "Task") {
        seen.push(name);
        const state = processor.States[name];
        // Route sends a batch's first copy of a body (a leader) on to Parse; followers end at once.
        name = name === "Route" ? state.Choices[0].Next : (state.Next ?? state.Default);
      }
      expect(seen).toEqual(["Route", "Parse", "Validate", "Recognise", "Stamp"]);
      expect(processor.States[name]).toMatchObject({
        Resource: `arn:\${data.aws_partition.${Object.keys(json.data!.aws_partition)[0]}.partition}:states:::dynamodb:putItem`,
        Arguments: { TableName: referenceTo(json, "aws_dynamodb_table", "test-ledger", "name") },
      });
      expect(processor.States[name].Arguments.ConditionExpression).toContain("attribute_not_exists(pk)");
    });

    it("invokes the function, quarantines to the DLQ and catches the function's permanent errors", () => {
      const { json } = stack;
      const states = JSON.parse(resourceNamed(json, "aws_sfn_state_machine", "test-workflow").definition as string).States.ProcessBatch.ItemProcessor.States;
      expect(states.Invoke.Arguments.FunctionName).toBe(referenceTo(json, "aws_lambda_function", "test-charge", "arn"));
      // The function's 10 s, a cold start's Init (up to 10 s, not counted in the function's timeout) and 5 s.
      expect(states.Invoke.TimeoutSeconds).toBe(25);
      // The handler wrapper's reserved names and Powertools', by default: the example lists none.
      expect(states.Invoke.Catch[0]).toMatchObject({ ErrorEquals: ["IdempotencyValidationError", "PipelineConflict"], Assign: { reason: "payload-mismatch" } });
      expect(states.Invoke.Catch[1]).toMatchObject({ ErrorEquals: ["PipelineRejected"], Assign: { reason: "rejected" } });
      expect(states.Quarantine.Arguments.QueueUrl).toBe(referenceTo(json, "aws_sqs_queue", "test-dlq", "url"));
    });
  });

  describe("tables", () => {
    it("keeps the ledger keyed by pk/sk, on demand, with TTL on expiresAt, PITR, SSE and deletion protection", () => {
      expect(resourceNamed(stack.json, "aws_dynamodb_table", "test-ledger")).toMatchObject({
        billing_mode: "PAY_PER_REQUEST",
        hash_key: "pk",
        range_key: "sk",
        attribute: [{ name: "pk", type: "S" }, { name: "sk", type: "S" }],
        ttl: { attribute_name: "expiresAt", enabled: true },
        point_in_time_recovery: { enabled: true },
        server_side_encryption: { enabled: true },
        deletion_protection_enabled: true,
      });
    });

    it("gives Powertools its own table keyed by id with TTL on expiration", () => {
      expect(resourceNamed(stack.json, "aws_dynamodb_table", "test-idempotency")).toMatchObject({
        hash_key: "id",
        ttl: { attribute_name: "expiration", enabled: true },
        point_in_time_recovery: { enabled: true },
        server_side_encryption: { enabled: true },
      });
    });
  });

  describe("queues", () => {
    it("redrives to the DLQ after 5 receives, with a visibility timeout of 6 × the execution timeout, encrypted", () => {
      const { json } = stack;
      const queue = resourceNamed(json, "aws_sqs_queue", "test-queue");
      expect(queue).toMatchObject({ visibility_timeout_seconds: 6 * 190, message_retention_seconds: 345600, sqs_managed_sse_enabled: true });
      expect(JSON.parse(queue.redrive_policy as string)).toEqual({ deadLetterTargetArn: referenceTo(json, "aws_sqs_queue", "test-dlq", "arn"), maxReceiveCount: 5 });
      expect(resourceNamed(json, "aws_sqs_queue", "test-dlq")).toMatchObject({ message_retention_seconds: 1209600, sqs_managed_sse_enabled: true });
    });

    it("lets only the source queue dead-letter into the DLQ, and no queue into the source queue", () => {
      // Arrange: each redrive-allow policy by the queue it is set on.
      const byQueue = new Map(resourcesOfType(stack.json, "aws_sqs_queue_redrive_allow_policy").map(([, allow]) => [allow.queue_url, JSON.parse(allow.redrive_allow_policy as string)]));
      // Assert: exactly the two, so a redrive policy (the DLQ's own, a temporary queue's) can never target the source queue.
      expect(byQueue.size).toBe(2);
      expect(byQueue.get(referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "url"))).toEqual({
        redrivePermission: "byQueue",
        sourceQueueArns: [referenceTo(stack.json, "aws_sqs_queue", "test-queue", "arn")],
      });
      expect(byQueue.get(referenceTo(stack.json, "aws_sqs_queue", "test-queue", "url"))).toEqual({ redrivePermission: "denyAll" });
    });
  });

  describe("function", () => {
    it("runs the esbuild bundle on nodejs22.x arm64 with the idempotency environment", () => {
      const { json } = stack;
      const fn = resourceNamed(json, "aws_lambda_function", "test-charge");
      expect(fn).toMatchObject({
        runtime: "nodejs22.x",
        architectures: ["arm64"],
        handler: "index.handler",
        timeout: 10,
        memory_size: 256,
        tracing_config: { mode: "Active" },
        logging_config: { log_format: "JSON", log_group: referenceTo(json, "aws_cloudwatch_log_group", "/aws/lambda/test-charge", "name") },
        environment: {
          variables: {
            IDEMPOTENCY_TABLE_NAME: referenceTo(json, "aws_dynamodb_table", "test-idempotency", "name"),
            EFFECTS_TABLE_NAME: referenceTo(json, "aws_dynamodb_table", "test-effects", "name"),
            IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "1209600",
            PAYLOAD_FIELDS: '["amount","currency"]',
            POWERTOOLS_SERVICE_NAME: "test",
            POWERTOOLS_LOG_LEVEL: "INFO",
          },
        },
      });
      // No names added to the contract's: no variable (the function's configuration as before).
      expect((fn.environment as { variables: Record<string, string> }).variables).not.toHaveProperty("PIPELINE_REJECTION_ERRORS");
      expect(fn.source_code_hash).toMatch(/^[0-9A-F]{32}$/);
      expect(existsSync(join(stack.stackDir, fn.filename as string))).toBe(true);
    });
  });

  describe("alarms and dashboard", () => {
    it.each([
      ["test-dlq-depth", "AWS/SQS", "ApproximateNumberOfMessagesVisible", 0, "ignore"],
      ["test-dlq-expiry", "AWS/SQS", "ApproximateAgeOfOldestMessage", 9 * 86400, "notBreaching"],
      ["test-oldest-message-age", "AWS/SQS", "ApproximateAgeOfOldestMessage", 600, "notBreaching"],
      ["test-messages-in-flight", "AWS/SQS", "ApproximateNumberOfMessagesNotVisible", 96_000, "notBreaching"],
      ["test-executions-failed", "AWS/States", "ExecutionsFailed", 0, "notBreaching"],
      ["test-executions-timed-out", "AWS/States", "ExecutionsTimedOut", 0, "notBreaching"],
      ["test-function-throttles", "AWS/Lambda", "Throttles", 0, "notBreaching"],
      ["test-function-duration", "AWS/Lambda", "Duration", 8000, "notBreaching"],
      ["test-pipe-execution-failed", "AWS/EventBridge/Pipes", "ExecutionFailed", 0, "notBreaching"],
      ["test-pipe-throttled", "AWS/EventBridge/Pipes", "ExecutionThrottled", 0, "notBreaching"],
      ["test-pipe-target-failed", "AWS/EventBridge/Pipes", "TargetStageFailed", 0, "notBreaching"],
    ])("alarm %s watches %s %s against %d, missing data %s", (name, namespace, metric, threshold, missing) => {
      expect(resourceNamed(stack.json, "aws_cloudwatch_metric_alarm", name)).toMatchObject({
        namespace,
        metric_name: metric,
        threshold,
        treat_missing_data: missing,
      });
    });

    it("notifies the construct's SNS topic from every alarm, and outputs the topic", () => {
      const topic = referenceTo(stack.json, "aws_sns_topic", "test-alarms", "arn");
      for (const [, alarm] of resourcesOfType(stack.json, "aws_cloudwatch_metric_alarm")) expect(alarm.alarm_actions).toEqual([topic]);
      expect(stack.json.output?.alarm_topic_arn).toEqual({ value: topic });
    });

    it("counts function failures without the rejections Lambda counted as errors, and with the batch records' failures it did not count", () => {
      const alarm = resourceNamed(stack.json, "aws_cloudwatch_metric_alarm", "test-function-errors");
      expect(alarm.metric_query).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: "errors", metric: expect.objectContaining({ namespace: "AWS/Lambda", metric_name: "Errors" }) }),
          expect.objectContaining({ id: "rejected", metric: expect.objectContaining({ namespace: "EffectivelyOnce/test-charge", metric_name: "RejectedInvocations" }) }),
          expect.objectContaining({ id: "batchFailed", metric: expect.objectContaining({ namespace: "EffectivelyOnce/test-charge", metric_name: "BatchRecordFailures" }) }),
          expect.objectContaining({ id: "failures", expression: "errors - rejected + batchFailed", return_data: true }),
        ]),
      );
      const logGroup = referenceTo(stack.json, "aws_cloudwatch_log_group", "/aws/lambda/test-charge", "name");
      const filters = resourcesOfType(stack.json, "aws_cloudwatch_log_metric_filter").map(([, filter]) => filter);
      // Two of the 100 metric filters CloudWatch Logs allows on a log group.
      expect(filters).toHaveLength(2);
      expect(filters).toEqual(expect.arrayContaining([
        expect.objectContaining({ name: "test-charge-rejected-invocations", log_group_name: logGroup, pattern: `{ $.message = "${InvocationErrorMessage.Rejected}" && $.outcome = "rejected" && $.functionError IS TRUE }`, metric_transformation: { namespace: "EffectivelyOnce/test-charge", name: "RejectedInvocations", value: "1", unit: "Count" } }),
        expect.objectContaining({ name: "test-charge-batch-record-failures", log_group_name: logGroup, pattern: `{ $.message = "${InvocationErrorMessage.Failed}" && $.outcome = "failed" && $.functionError NOT EXISTS }`, metric_transformation: { namespace: "EffectivelyOnce/test-charge", name: "BatchRecordFailures", value: "1", unit: "Count" } }),
      ]));
    });

    it("keeps the DLQ active with an hourly GetQueueAttributes", () => {
      const [[, schedule]] = resourcesOfType(stack.json, "aws_scheduler_schedule");
      expect(schedule).toMatchObject({ name: "test-dlq-keepalive", schedule_expression: "rate(1 hour)", flexible_time_window: { mode: "OFF" } });
      const target = schedule.target as { arn: string; input: string };
      expect(target.arn).toMatch(/^arn:\$\{data\.aws_partition\.[\w]+\.partition\}:scheduler:::aws-sdk:sqs:getQueueAttributes$/);
      expect(JSON.parse(target.input).QueueUrl).toBe(referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "url"));
    });

    it("points the DLQ alarm at the DLQ", () => {
      expect(resourceNamed(stack.json, "aws_cloudwatch_metric_alarm", "test-dlq-depth").dimensions).toEqual({
        QueueName: referenceTo(stack.json, "aws_sqs_queue", "test-dlq", "name"),
      });
    });

    it("draws a dashboard of queue, workflow, function and ledger metrics", () => {
      const body = JSON.parse(resourceNamed(stack.json, "aws_cloudwatch_dashboard", "test-pipeline-us-east-1").dashboard_body as string);
      const namespaces = new Set(body.widgets.flatMap((w: { properties: { metrics: string[][] } }) => w.properties.metrics.map((m) => m[0])));
      expect([...namespaces].sort()).toEqual(["AWS/DynamoDB", "AWS/Lambda", "AWS/SQS", "AWS/States", FATE_METRICS_NAMESPACE]);
    });

    it("names an Operation on every DynamoDB throttle line (DynamoDB publishes ThrottledRequests per TableName and Operation)", () => {
      // Arrange
      const body = JSON.parse(resourceNamed(stack.json, "aws_cloudwatch_dashboard", "test-pipeline-us-east-1").dashboard_body as string);
      const lines: unknown[][] = body.widgets.flatMap((w: { properties: { metrics: unknown[][] } }) => w.properties.metrics);

      // Act
      const throttles = lines.filter((m) => m[0] === "AWS/DynamoDB" && m[1] === "ThrottledRequests");

      // Assert: each of the workflow's four ledger operations, and each line names its operation.
      expect(throttles.length).toBeGreaterThan(0);
      for (const line of throttles) expect(line).toEqual(["AWS/DynamoDB", "ThrottledRequests", "TableName", expect.any(String), "Operation", expect.any(String)]);
      const ledger = referenceTo(stack.json, "aws_dynamodb_table", "test-ledger", "name");
      expect(throttles.filter((m) => m[3] === ledger).map((m) => m[5]).sort()).toEqual(["DeleteItem", "GetItem", "PutItem", "UpdateItem"]);
    });

    it("draws the function's and the workflow's fate metrics under the service dimension both publish (the function's POWERTOOLS_SERVICE_NAME), quarantines by reason", () => {
      // Arrange
      const body = JSON.parse(resourceNamed(stack.json, "aws_cloudwatch_dashboard", "test-pipeline-us-east-1").dashboard_body as string);
      const service = (resourceNamed(stack.json, "aws_lambda_function", "test-charge").environment as { variables: Record<string, string> }).variables.POWERTOOLS_SERVICE_NAME;

      // Act
      const fates: unknown[][] = body.widgets.flatMap((w: { properties: { metrics: unknown[][] } }) => w.properties.metrics).filter((m: unknown[]) => m[0] === FATE_METRICS_NAMESPACE);

      // Assert
      expect(new Set(fates.map((m) => m[1]))).toEqual(new Set([...FUNCTION_FATE_METRICS, ...WORKFLOW_FATE_METRICS].map((m) => m.name)));
      for (const line of fates) expect(line.slice(2, 4)).toEqual(["service", service]);
      expect(fates.filter((m) => m[1] === FateMetric.Quarantined).map((m) => m.slice(4, 6))).toEqual(Object.values(DlqReason).map((r) => ["reason", r]));
      // The workflow writes the same service value into its EMF documents.
      const definition = JSON.parse(resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").definition as string);
      expect(definition.States.PutFateMetrics.Arguments.LogEvents).toContain(`'service': '${service}'`);
    });
  });

  describe("outputs", () => {
    it("exposes every name a client needs under stable output names", () => {
      const { json } = stack;
      expect(json.output).toMatchObject({
        queue_url: { value: referenceTo(json, "aws_sqs_queue", "test-queue", "url") },
        dlq_url: { value: referenceTo(json, "aws_sqs_queue", "test-dlq", "url") },
        ledger_table_name: { value: referenceTo(json, "aws_dynamodb_table", "test-ledger", "name") },
        idempotency_table_name: { value: referenceTo(json, "aws_dynamodb_table", "test-idempotency", "name") },
        effects_table_name: { value: referenceTo(json, "aws_dynamodb_table", "test-effects", "name") },
        state_machine_arn: { value: referenceTo(json, "aws_sfn_state_machine", "test-workflow", "arn") },
        function_name: { value: referenceTo(json, "aws_lambda_function", "test-charge", "function_name") },
        // The provider's region, read at plan (it may come from AWS_REGION then), not a value written at synth.
        region: { value: `\${data.aws_region.${Object.keys(json.data!.aws_region)[0]}.name}` },
        operation: { value: "charge" },
      });
    });

    it("writes exactly the names OutputName lists: the pipeline's, and the effect journal's from EffectJournalTable", () => {
      // Arrange
      const expected = Object.values(OutputName).sort();

      // Act
      const written = Object.keys(stack.json.output).sort();

      // Assert
      expect(written).toEqual(expected);
    });
  });
});

describe("Construct: IdempotentPipeline (overridden props)", () => {
  it("carries test-sized windows, a filter and extra error names (added to the wrapper's) into the pipe, the queue and the workflow", () => {
    // Arrange
    const stack = synthStack({
      // Per record: these figures are its worst case (one invocation per batch holds two invocations).
      batchInvocation: false,
      batchSize: 3,
      maximumBatchingWindowSeconds: 0,
      // The worst case: Init 10 + function 2 + quarantine 3 + the fate metrics call 2.
      executionTimeoutSeconds: 17,
      visibilityTimeoutSeconds: 102,
      leaseSeconds: 6,
      function: { timeoutSeconds: 2, permanentErrors: ["CardDeclined"], conflictErrors: ["AlreadyCaptured"] },
      lambdaRetries: 0,
      ledgerRetry: { intervalSeconds: 1, maxAttempts: 0, backoffRate: 1 },
      filterPatterns: [{ body: { currency: ["EUR", "USD"] } }],
    });
    try {
      // Act
      const { json } = stack;
      const pipe = resourceNamed(json, "aws_pipes_pipe", "test-pipe");
      const definition = JSON.parse(resourceNamed(json, "aws_sfn_state_machine", "test-workflow").definition as string);
      // Assert
      expect(pipe.source_parameters).toEqual({
        sqs_queue_parameters: { batch_size: 3, maximum_batching_window_in_seconds: 0 },
        // The stack's pattern, then the construct's: a copy carrying the quarantine's attributes passes whatever the stack filters.
        filter_criteria: {
          filter: [
            { pattern: JSON.stringify({ body: { currency: ["EUR", "USD"] } }) },
            { pattern: JSON.stringify({ messageAttributes: { reason: { stringValue: [{ exists: true }] }, originalMessageId: { stringValue: [{ exists: true }] }, firstSentTimestamp: { stringValue: [{ exists: true }] } } }) },
          ],
        },
      });
      expect(resourceNamed(json, "aws_sqs_queue", "test-queue").visibility_timeout_seconds).toBe(102);
      expect(definition.TimeoutSeconds).toBe(17);
      expect(definition.States.ProcessBatch.MaxConcurrency).toBe(3);
      expect(definition.States.ProcessBatch.ItemProcessor.States.Invoke.TimeoutSeconds).toBe(17); // 2 s + a cold start's Init (10 s) + 5 s
      expect(resourceNamed(json, "aws_lambda_function", "test-charge").timeout).toBe(2);
      const [conflict, permanent] = definition.States.ProcessBatch.ItemProcessor.States.Invoke.Catch;
      expect(conflict.ErrorEquals).toEqual(["IdempotencyValidationError", "PipelineConflict", "AlreadyCaptured"]);
      expect(permanent.ErrorEquals).toEqual(["PipelineRejected", "CardDeclined"]);
      // The function learns the added names, so it logs them as the rejections the workflow makes of them.
      expect((resourceNamed(json, "aws_lambda_function", "test-charge").environment as { variables: Record<string, string> }).variables.PIPELINE_REJECTION_ERRORS).toBe('["AlreadyCaptured","CardDeclined"]');
    } finally {
      stack.cleanup();
    }
  });
});
