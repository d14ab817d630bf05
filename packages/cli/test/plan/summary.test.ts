import { classifyActions, PlanAction } from "../../src/terraform/plan-json";
import { buildReview } from "../../src/terraform/review/build";
import { serviceOf } from "../../src/terraform/review/planned";
import { ActionBasis } from "../../src/terraform/review/types";
import { plan, queue, table } from "./support/plan-fixtures";

describe("Section: summary", () => {
  it("classifies Terraform's action lists, both replacement orders included", () => {
    expect(classifyActions(["create"])).toBe(PlanAction.Create);
    expect(classifyActions(["update"])).toBe(PlanAction.Update);
    expect(classifyActions(["delete", "create"])).toBe(PlanAction.Replace);
    expect(classifyActions(["create", "delete"])).toBe(PlanAction.Replace);
    expect(classifyActions(["delete"])).toBe(PlanAction.Destroy);
    expect(classifyActions(["no-op"])).toBe(PlanAction.Noop);
    expect(classifyActions(["read"])).toBe(PlanAction.Read);
  });

  it("groups resource types by AWS service", () => {
    expect(serviceOf("aws_cloudwatch_log_group")).toBe("CloudWatch Logs");
    expect(serviceOf("aws_cloudwatch_metric_alarm")).toBe("CloudWatch");
    expect(serviceOf("aws_sfn_state_machine")).toBe("Step Functions");
    expect(serviceOf("aws_pipes_pipe")).toBe("EventBridge Pipes");
    expect(serviceOf("aws_ecr_repository")).toBe("ECR");
  });

  it("counts resources per action, overall and per service, and ignores data sources", () => {
    // Arrange
    const p = plan([
      { address: "aws_dynamodb_table.a", actions: ["create"], after: table() },
      { address: "aws_dynamodb_table.b", actions: ["delete", "create"], before: table(), after: table() },
      { address: "aws_sqs_queue.q", actions: ["update"], before: queue(), after: queue() },
      { address: "aws_sqs_queue.r", actions: ["no-op"], before: queue(), after: queue() },
      { address: "aws_sqs_queue.s", actions: ["delete"], before: queue(), after: null },
    ]);
    const withData = { ...p, resource_changes: [...p.resource_changes!, { ...p.resource_changes![0], address: "data.aws_region.x", mode: "data" as const, type: "aws_region" }] };
    // Act
    const { summary } = buildReview(withData, { basis: ActionBasis.RealState });
    // Assert
    expect(summary).toMatchObject({ create: 1, update: 1, replace: 1, destroy: 1, noop: 1 });
    expect(summary.byService).toEqual([
      { service: "DynamoDB", create: 1, update: 0, replace: 1, destroy: 0, noop: 0 },
      { service: "SQS", create: 0, update: 1, replace: 0, destroy: 1, noop: 1 },
    ]);
  });
});
