import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import type { JsonObject } from "../../src/terraform/plan-json";
import { plan, type FixtureResource } from "./support/plan-fixtures";

const FN = "aws_lambda_function.worker";

function risks(resources: readonly FixtureResource[]): RiskFlag[] {
  return [...buildReview(plan(resources), { basis: ActionBasis.RealState }).risks];
}

/** A pipeline function as the plan shows it, with `PIPELINE_BATCH_CONCURRENCY` when `batch` (batchInvocation on). */
function fn(batch: boolean, table = "p-idempotency"): JsonObject {
  const variables: JsonObject = { IDEMPOTENCY_TABLE_NAME: table, IDEMPOTENCY_KEY_PREFIX: "effectively-once.v1", IDEMPOTENCY_HASH_FUNCTION: "sha256", ...(batch ? { PIPELINE_BATCH_CONCURRENCY: "10" } : {}) };
  return { function_name: "p-worker", runtime: "nodejs22.x", timeout: 10, memory_size: 256, environment: [{ variables }] };
}
const update = (before: JsonObject, after: JsonObject): FixtureResource => ({ address: FN, actions: ["update"], before, after });

describe("Rule: the function's event changes shape (batchInvocation, npm run plan:review)", () => {
  it("flags turning one invocation per batch on, with the deploy order", () => {
    // Act
    const flags = risks([update(fn(false), fn(true))]);

    // Assert
    expect(flags).toEqual([expect.objectContaining({ kind: RiskKind.InvocationShapeChange, severity: Severity.Medium, address: FN })]);
    expect(flags[0]!.message).toContain("starts invoking it once per batch");
    expect(flags[0]!.message).toContain("deploy that first, with `batchInvocation: false`");
  });

  it("flags turning it off, with the rollback's order", () => {
    // Act
    const flags = risks([update(fn(true), fn(false))]);

    // Assert
    expect(flags.map((f) => f.kind)).toEqual([RiskKind.InvocationShapeChange]);
    expect(flags[0]!.message).toContain("Roll the function's code back only after this deploy");
  });

  it("says nothing while the shape stays", () => {
    expect(risks([update(fn(true), fn(true))])).toEqual([]);
    expect(risks([update(fn(false), fn(false))])).toEqual([]);
  });
});
