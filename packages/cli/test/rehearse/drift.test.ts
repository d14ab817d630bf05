import { compareActions, formatDrift, planDrift } from "../../src/terraform/rehearse/drift";
import { PlanAction, type PlanJson } from "../../src/terraform/plan-json";

function plan(changes: { address: string; actions: string[]; before?: object | null; after?: object | null; unknown?: object; mode?: "managed" | "data" }[]): PlanJson {
  return {
    format_version: "1.2",
    resource_changes: changes.map((c) => ({
      address: c.address,
      mode: c.mode ?? "managed",
      type: c.address.split(".")[0]!,
      name: c.address.split(".")[1]!,
      change: { actions: c.actions, before: (c.before ?? null) as never, after: (c.after ?? null) as never, after_unknown: (c.unknown ?? {}) as never },
    })),
  };
}

describe("Function: planDrift", () => {
  it("is empty when every resource is a no-op or a data read", () => {
    expect(planDrift(plan([{ address: "aws_sqs_queue.q", actions: ["no-op"] }, { address: "data.x.y", actions: ["read"], mode: "data" }]))).toEqual([]);
  });

  it("names each changed resource with its action and the attributes that differ or become unknown", () => {
    // Arrange
    const p = plan([
      { address: "aws_lambda_function.f", actions: ["update"], before: { memory_size: 256, name: "f", logging_config: [], version: null }, after: { memory_size: 256, name: "f", logging_config: [{ log_format: "JSON" }] }, unknown: { version: true } },
      { address: "aws_sfn_state_machine.m", actions: ["delete", "create"], before: { type: "STANDARD", arn: "a" }, after: { type: "EXPRESS", arn: null }, unknown: { arn: true } },
    ]);
    // Act
    const drift = planDrift(p);
    // Assert
    expect(drift).toEqual([
      { address: "aws_lambda_function.f", action: PlanAction.Update, attributes: ["logging_config", "version"], details: ['logging_config: [] → [{"log_format":"JSON"}]', "version: null → (known after apply)"] },
      { address: "aws_sfn_state_machine.m", action: PlanAction.Replace, attributes: ["arn", "type"], details: ['arn: "a" → (known after apply)', 'type: "STANDARD" → "EXPRESS"'] },
    ]);
    expect(formatDrift(drift)).toEqual([
      "update aws_lambda_function.f (logging_config, version)",
      '    logging_config: [] → [{"log_format":"JSON"}]',
      "    version: null → (known after apply)",
      "replace aws_sfn_state_machine.m (arn, type)",
      '    arn: "a" → (known after apply)',
      '    type: "STANDARD" → "EXPRESS"',
    ]);
  });
});

describe("Function: compareActions", () => {
  it("pairs predicted and actual actions, and reports a resource only one side touches as absent on the other", () => {
    const predicted = new Map<string, PlanAction>([
      ["aws_lambda_function.f", PlanAction.Update],
      ["aws_sqs_queue.q", PlanAction.Update],
      ["aws_iam_role.r", PlanAction.Noop],
    ]);
    const actual = [
      { address: "aws_lambda_function.f", action: PlanAction.Update, attributes: ["memory_size"], details: [] },
      { address: "aws_pipes_pipe.p", action: PlanAction.Update, attributes: ["source_parameters"], details: [] },
    ];
    expect(compareActions(predicted, actual)).toEqual([
      { address: "aws_lambda_function.f", predicted: PlanAction.Update, actual: PlanAction.Update },
      { address: "aws_pipes_pipe.p", predicted: "absent", actual: PlanAction.Update },
      { address: "aws_sqs_queue.q", predicted: PlanAction.Update, actual: "absent" },
    ]);
  });
});
