/**
 * A deploy that changes how keys are derived makes every already-applied message a new key for both layers: the
 * review must flag it high, name each change (old → new) and the safe procedure, and stay quiet otherwise.
 */
import { commentWithKeyDerivation, keyDerivation } from "@effectively-once/contract";
import { effectiveRules } from "@effectively-once/contract";
import { PIPELINE_TEMPLATE as template } from "@effectively-once/statemachines";
import { renderPipelineDefinition, type PipelineDefinitionParams } from "@effectively-once/statemachines";
import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import { ORDERS_FIELD_RULES } from "@effectively-once/testing";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";
import { MACHINE, plan, stateMachine, update } from "./support/plan-fixtures";

const FUNCTION = "aws_lambda_function.fn";

const definitionOf = (changes: Partial<PipelineDefinitionParams> = {}) => JSON.stringify(renderPipelineDefinition({ ...PIPELINE_TEST_PARAMS, ...changes }));

function keyRisks(before: string, after: string): RiskFlag[] {
  const review = buildReview(plan([update(MACHINE, stateMachine({ definition: before }), stateMachine({ definition: after }))]), { basis: ActionBasis.RealState });
  return review.risks.filter((r) => r.kind === RiskKind.KeyDerivationChange);
}

function lambda(memory: number) {
  return { function_name: "p-charge", runtime: "nodejs22.x", architectures: ["arm64"], timeout: 10, memory_size: memory, reserved_concurrent_executions: -1, tracing_config: [{ mode: "Active" }] };
}

describe("Rule: key derivation changes (via buildReview)", () => {
  it.each<[string, Partial<PipelineDefinitionParams>, string]>([
    ["the operation", { operation: "capture" }, "operation `charge` → `capture`"],
    ["businessKey.expression", { keyExpression: "[orderId, tenantId]" }, "businessKey.expression `[tenantId, orderId]` → `[orderId, tenantId]`"],
    ["the payload fields", { payloadFields: ["amount"] }, "payloadFields `amount, currency` → `amount`"],
    [
      "a field rule",
      { fieldRules: effectiveRules(["tenantId", "orderId"], ["amount", "currency"], { ...ORDERS_FIELD_RULES, amount: { type: "integer", minimum: 0 } }) },
      'fieldRules.amount `{"minimum":1,"type":"integer"}` → `{"minimum":0,"type":"integer"}`',
    ],
  ])("flags a change of %s as high, naming it old → new and the safe procedure", (_case, changes, named) => {
    // Act
    const flags = keyRisks(definitionOf(), definitionOf(changes));

    // Assert
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ severity: Severity.High, address: MACHINE, basis: "terraform" });
    expect(flags[0].message).toContain(named);
    expect(flags[0].message).toMatch(/a resend of it .* is applied again/);
    expect(flags[0].message).toMatch(/drain the source queue and the DLQ.*retention window.*or keep the old derivation/);
  });

  it("flags a new canonical form (a release that writes key text or hashes payloads differently)", () => {
    // Arrange: the deployed definition carries the record an older canonical form wrote.
    const deployed = renderPipelineDefinition(PIPELINE_TEST_PARAMS);
    deployed.Comment = commentWithKeyDerivation(template.Comment, { ...keyDerivation(PIPELINE_TEST_PARAMS), canonicalForm: "sha256:0123456789abcdef" });

    // Act
    const flags = keyRisks(JSON.stringify(deployed), definitionOf());

    // Assert
    expect(flags).toHaveLength(1);
    expect(flags[0].message).toMatch(/canonical form `sha256:0123456789abcdef` → `sha256:[0-9a-f]{16}`/);
  });

  it("names every part that changed in one flag", () => {
    const flags = keyRisks(definitionOf(), definitionOf({ operation: "capture", payloadFields: ["amount"] }));
    expect(flags).toHaveLength(1);
    expect(flags[0].message).toMatch(/operation `charge` → `capture`; payloadFields `amount, currency` → `amount`/);
  });

  it("stays quiet for unrelated changes: memory, retries, concurrency, error names, and payload fields in another order", () => {
    // Arrange
    const before = definitionOf();
    const after = definitionOf({ lambdaRetries: 5, maxConcurrency: 3, permanentErrors: ["PipelineRejected", "CardDeclined"], payloadFields: ["currency", "amount"] });
    const review = buildReview(
      plan([update(MACHINE, stateMachine({ definition: before }), stateMachine({ definition: after, logging_configuration: [{ level: "ALL", include_execution_data: false, log_destination: "x" }] })), update(FUNCTION, lambda(256), lambda(1024))]),
      { basis: ActionBasis.RealState },
    );

    // Act / Assert
    expect(review.risks).toEqual([]);
  });

  it("stays quiet when the deployed definition predates the record (nothing to compare)", () => {
    const old = renderPipelineDefinition(PIPELINE_TEST_PARAMS);
    old.Comment = template.Comment;
    expect(keyRisks(JSON.stringify(old), definitionOf({ operation: "capture" }))).toEqual([]);
  });

  it("reads the planned definition from the configuration's template when it embeds unknown ARNs, against a baseline configuration", () => {
    // Arrange: offline, empty state; the baseline is the previous configuration's review.
    const params = { functionArn: "${aws_lambda_function.fn.arn}" };
    const side = (definition: string) => ({
      address: MACHINE,
      actions: ["create"],
      after: stateMachine({ definition: null }),
      unknown: { definition: true },
      expressions: { definition: { constant_value: definition, references: ["aws_lambda_function.fn.arn", "aws_lambda_function.fn"] } },
    });
    const baseline = buildReview(plan([side(definitionOf(params))]), { basis: ActionBasis.EmptyState });

    // Act
    const review = buildReview(plan([side(definitionOf({ ...params, keyExpression: "[orderId]" }))]), {
      basis: ActionBasis.EmptyState,
      baseline: { label: "base-plan.json", resources: baseline.resources },
    });

    // Assert
    expect(review.risks).toEqual([expect.objectContaining({ kind: RiskKind.KeyDerivationChange, severity: Severity.High, basis: "configuration" })]);
    expect(review.risks[0].message).toContain("businessKey.expression `[tenantId, orderId]` → `[orderId]`");
    expect(review.changes?.settings.map((s) => s.setting)).toEqual(["keyDerivation"]);
  });
});
