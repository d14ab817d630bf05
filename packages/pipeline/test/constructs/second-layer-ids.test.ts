import { InvalidPropError } from "../../src/constructs";
import { resourceNamed, type SynthesizedStack } from "@effectively-once/testing";
import { buildStack, synthStack } from "@effectively-once/testing/stack";

const variablesOf = (stack: SynthesizedStack) =>
  (resourceNamed(stack.json, "aws_lambda_function", "test-charge").environment as { variables: Record<string, unknown> }).variables;
const outputsOf = (stack: SynthesizedStack) => Object.fromEntries(Object.entries(stack.json.output).map(([name, o]) => [name, (o as { value: unknown }).value]));

describe("Construct: the second layer's record ids", () => {
  let stack: SynthesizedStack;
  beforeAll(() => {
    stack = synthStack();
  });
  afterAll(() => stack.cleanup());

  it("gives the function the contract's prefix and SHA-256 (never its name), and release 0.2's prefix for the transition", () => {
    expect(variablesOf(stack)).toMatchObject({ IDEMPOTENCY_KEY_PREFIX: "effectively-once.v1", IDEMPOTENCY_HASH_FUNCTION: "sha256", IDEMPOTENCY_LEGACY_KEY_PREFIX: "test-charge" });
  });

  it("repeats the same values in the outputs, where ops reads them", () => {
    expect(outputsOf(stack)).toMatchObject({ idempotency_key_prefix: "effectively-once.v1", idempotency_hash_function: "sha256", idempotency_legacy_key_prefix: "test-charge" });
  });

  it("protects the idempotency table from deletion, like the ledger (deletionProtection)", () => {
    expect(resourceNamed(stack.json, "aws_dynamodb_table", "test-idempotency")).toMatchObject({ deletion_protection_enabled: true });
  });
});

describe("Construct: second-layer ids under other props", () => {
  it("keeps the prefix and digest through a rename; the legacy prefix follows the name unless pinned, and `false` ends it", () => {
    const renamed = synthStack({ function: { name: "charge-v2" } });
    const pinned = synthStack({ function: { name: "charge-v2", legacyIdempotencyKeyPrefix: "test-charge" } });
    const ended = synthStack({ function: { legacyIdempotencyKeyPrefix: false }, deletionProtection: false });
    try {
      const fn = (s: SynthesizedStack, name: string) => (resourceNamed(s.json, "aws_lambda_function", name).environment as { variables: Record<string, unknown> }).variables;
      expect(fn(renamed, "test-charge-v2")).toMatchObject({ IDEMPOTENCY_KEY_PREFIX: "effectively-once.v1", IDEMPOTENCY_HASH_FUNCTION: "sha256", IDEMPOTENCY_LEGACY_KEY_PREFIX: "test-charge-v2" });
      expect(fn(pinned, "test-charge-v2")).toMatchObject({ IDEMPOTENCY_LEGACY_KEY_PREFIX: "test-charge" });
      expect(fn(ended, "test-charge")).not.toHaveProperty("IDEMPOTENCY_LEGACY_KEY_PREFIX");
      expect(outputsOf(ended)).toMatchObject({ idempotency_legacy_key_prefix: "" });
      expect(resourceNamed(ended.json, "aws_dynamodb_table", "test-idempotency")).toMatchObject({ deletion_protection_enabled: false });
    } finally {
      [renamed, pinned, ended].forEach((s) => s.cleanup());
    }
  });

  it("refuses a legacy prefix no Lambda function could have had, naming the prop and the fix", () => {
    let error: unknown;
    try {
      buildStack({ function: { legacyIdempotencyKeyPrefix: " old worker " } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidPropError);
    expect((error as InvalidPropError).problems).toEqual([
      expect.objectContaining({ prop: "function.legacyIdempotencyKeyPrefix", value: " old worker ", fix: expect.stringContaining("the function's name under release 0.2") }),
    ]);
  });
});
