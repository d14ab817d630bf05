import { existsSync } from "node:fs";
import { join } from "node:path";
import { OutputName } from "@effectively-once/contract";
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
