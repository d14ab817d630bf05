import { DlqReason, FATE_METRICS_NAMESPACE, FateMetric, FUNCTION_FATE_METRICS, InvocationErrorMessage, WORKFLOW_FATE_METRICS } from "@effectively-once/contract";
import { referenceTo, resourceNamed, resourcesOfType, type SynthesizedStack } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

// The default payments stack's alarms, metric filters and dashboard (the rest of the construct: pipeline-construct.test.ts).
describe("Construct: IdempotentPipeline (default payments stack)", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack.cleanup());

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
});
