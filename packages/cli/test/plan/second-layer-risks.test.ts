import { buildReview } from "../../src/terraform/review/build";
import { ActionBasis, RiskKind, Severity, type RiskFlag } from "../../src/terraform/review/types";
import type { JsonObject } from "../../src/terraform/plan-json";
import { plan, type FixtureResource } from "./support/plan-fixtures";

function risks(resources: readonly FixtureResource[], basis: ActionBasis = ActionBasis.RealState): RiskFlag[] {
  return [...buildReview(plan(resources), { basis }).risks];
}
const kinds = (flags: readonly RiskFlag[]) => flags.map((f) => f.kind);

const FN = "aws_lambda_function.worker";

/** A pipeline function as the plan shows it: this release's variables unless `release02`, which sets none of them. */
function fn(name: string, variables: Record<string, string | undefined> = {}, release02 = false): JsonObject {
  const ids = release02 ? {} : { IDEMPOTENCY_KEY_PREFIX: "effectively-once.v1", IDEMPOTENCY_HASH_FUNCTION: "sha256", IDEMPOTENCY_LEGACY_KEY_PREFIX: "p-worker" };
  const all = Object.fromEntries(Object.entries({ IDEMPOTENCY_TABLE_NAME: "p-idempotency", ...ids, ...variables }).filter(([, v]) => v !== undefined));
  return { function_name: name, runtime: "nodejs22.x", timeout: 10, memory_size: 256, environment: [{ variables: all as JsonObject }] };
}
const replaced = (before: JsonObject, after: JsonObject): FixtureResource => ({ address: FN, actions: ["delete", "create"], before, after, replacePaths: [["function_name"]] });

describe("Rule: second-layer record ids (npm run plan:review)", () => {
  it("a rename of a function of release 0.2 is a second-layer key reset (its records were named after it)", () => {
    // Act
    const flags = risks([replaced(fn("p-worker", {}, true), fn("p-worker-v2", {}, true))]);

    // Assert
    expect(kinds(flags)).toEqual([RiskKind.SecondLayerKeyReset]);
    expect(flags[0]).toMatchObject({ severity: Severity.High, address: FN });
    expect(flags[0].message).toContain("SECOND-LAYER KEYS RESET: p-worker-v2 wrote its Powertools records as `p-worker#<md5 of the key>`");
    expect(flags[0].message).toContain('function.legacyIdempotencyKeyPrefix: "p-worker"');
    // What ops does: it counts only what the deployed function honours, so the old records stop vouching for copies.
    expect(flags[0].message).toContain("`pipeline-ops dlq redrive` counts only the records the deployed function honours");
    expect(flags[0].message).not.toContain("no longer sees those keys");
  });

  it("a rename under this release resets nothing: the ids are the contract's (the legacy prefix pinned)", () => {
    expect(risks([replaced(fn("p-worker"), fn("p-worker-v2"))])).toEqual([]);
  });

  it("the upgrade from release 0.2 resets nothing while the function honours the old ids", () => {
    expect(risks([{ address: FN, actions: ["update"], before: fn("p-worker", {}, true), after: fn("p-worker") }])).toEqual([]);
  });

  it("the upgrade without the old ids honoured (legacy prefix off, or another name) is a reset, with the fix", () => {
    // Act
    const off = risks([{ address: FN, actions: ["update"], before: fn("p-worker", {}, true), after: fn("p-worker", { IDEMPOTENCY_LEGACY_KEY_PREFIX: undefined }) }]);
    const wrong = risks([{ address: FN, actions: ["update"], before: fn("p-worker", {}, true), after: fn("p-worker", { IDEMPOTENCY_LEGACY_KEY_PREFIX: "p-other" }) }]);

    // Assert
    expect(kinds(off)).toEqual([RiskKind.SecondLayerKeyReset]);
    expect(off[0].message).toContain('set `function.legacyIdempotencyKeyPrefix: "p-worker"`');
    expect(kinds(wrong)).toEqual([RiskKind.SecondLayerKeyReset]);
  });

  it.each([
    ["the prefix", { IDEMPOTENCY_KEY_PREFIX: "effectively-once.v2" }],
    ["the digest", { IDEMPOTENCY_HASH_FUNCTION: "sha512" }],
  ])("a change of %s is a reset, with the safe procedure", (_what, variables) => {
    // Act
    const flags = risks([{ address: FN, actions: ["update"], before: fn("p-worker"), after: fn("p-worker", variables) }]);

    // Assert
    expect(kinds(flags)).toEqual([RiskKind.SecondLayerKeyReset]);
    expect(flags[0].message).toContain("Safe procedure: keep the prefix and digest the records were written with");
  });

  it("dropping the earlier release's prefix is a medium flag: safe only one retention after the upgrade", () => {
    // Act
    const dropped = risks([{ address: FN, actions: ["update"], before: fn("p-worker"), after: fn("p-worker", { IDEMPOTENCY_LEGACY_KEY_PREFIX: undefined }) }]);
    const renamedUnpinned = risks([replaced(fn("p-worker"), fn("p-worker-v2", { IDEMPOTENCY_LEGACY_KEY_PREFIX: "p-worker-v2" }))]);

    // Assert
    expect(kinds(dropped)).toEqual([RiskKind.SecondLayerLegacyDropped]);
    expect(dropped[0]).toMatchObject({ severity: Severity.Medium });
    expect(dropped[0].message).toContain("Safe once `retentionSeconds` have passed since the upgrade");
    expect(kinds(renamedUnpinned)).toEqual([RiskKind.SecondLayerLegacyDropped]);
    expect(renamedUnpinned[0].message).toContain("pin it before a rename");
  });

  it("compares a function that moved to another address (a construct renamed) by the idempotency table it writes", () => {
    // Arrange: destroyed at one address, created at another, both on p-idempotency.
    const moved = (after: JsonObject): FixtureResource[] => [
      { address: FN, actions: ["delete"], before: fn("p-worker", {}, true), after: null },
      { address: "aws_lambda_function.renamed", actions: ["create"], after },
    ];

    // Act / Assert
    expect(kinds(risks(moved(fn("p-worker-v2", {}, true))))).toEqual([RiskKind.SecondLayerKeyReset]);
    expect(risks(moved(fn("p-worker-v2")))).toEqual([]);
    expect(risks(moved(fn("p-worker-v2", { IDEMPOTENCY_TABLE_NAME: "q-idempotency" }, true)))).toEqual([]);
  });

  it("names a replaced idempotency table a second-layer key reset in its data-loss flag", () => {
    const table = { name: "p-idempotency", hash_key: "id", deletion_protection_enabled: true };
    const flags = risks([{ address: "aws_dynamodb_table.idempotency", actions: ["delete", "create"], before: table, after: { ...table, name: "q-idempotency" }, replacePaths: [["name"]] }]);
    expect(kinds(flags)).toEqual([RiskKind.StatefulReplace]);
    expect(flags[0].message).toContain("a second-layer key reset");
    expect(flags[0].message).toContain("Deletion protection is on");
  });

  it("ignores functions of no pipeline (no IDEMPOTENCY_TABLE_NAME)", () => {
    const plain = (name: string): JsonObject => ({ function_name: name, runtime: "nodejs22.x", environment: [{ variables: { COLOR: "blue" } }] });
    expect(risks([replaced(plain("other"), plain("other-v2"))])).toEqual([]);
  });
});
