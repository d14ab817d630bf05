import { CANONICAL_FORM, keyDerivation, keyDerivationChanges, readKeyDerivation } from "@effectively-once/contract";
import { ORDERS_FIELD_RULES, ORDERS_KEY, ORDERS_OPERATION, ORDERS_PAYLOAD_FIELDS } from "@effectively-once/testing";
import { resourceNamed } from "@effectively-once/testing";
import { synthStack } from "@effectively-once/testing/stack";

describe("Contract: the key derivation record", () => {
  it("pins the canonical form: a change to how key text is written or payloads are hashed must be deliberate", () => {
    // If this fails, the JSONata that writes the key text or the payload hash changed: every deployed pipeline
    // gets new keys on its next deploy, and `npm run plan` flags it. Update the value, and say so in docs/upgrading.md.
    expect(CANONICAL_FORM).toBe("sha256:0e7094b2bfb2ad12");
  });

  it("is written into the synthesized state machine definition, with the construct's operation, key, payload fields and rules", () => {
    // Arrange
    const stack = synthStack();
    try {
      // Act
      const record = readKeyDerivation(resourceNamed(stack.json, "aws_sfn_state_machine", "test-workflow").definition);

      // Assert
      expect(record).toEqual({
        operation: ORDERS_OPERATION,
        businessKey: ORDERS_KEY.expression,
        payloadFields: [...ORDERS_PAYLOAD_FIELDS].sort(),
        fieldRules: expect.objectContaining({ amount: ORDERS_FIELD_RULES.amount, tenantId: ORDERS_FIELD_RULES.tenantId }),
        canonicalForm: CANONICAL_FORM,
      });
    } finally {
      stack.cleanup();
    }
  });

  it("ignores the order payload fields and rule keys are written in", () => {
    const base = { operation: "charge", keyExpression: "[a]", payloadFields: ["x", "y"], fieldRules: [["a", { type: "string", maxLength: 5 }]] as const };
    const reordered = { ...base, payloadFields: ["y", "x", "x"], fieldRules: [["a", { maxLength: 5, type: "string" }]] as const };
    expect(keyDerivationChanges(keyDerivation(base), keyDerivation(reordered))).toEqual([]);
  });

  it("reads nothing from a definition without a record, or with a broken one", () => {
    expect(readKeyDerivation({ Comment: "Effectively-once processing" })).toBeUndefined();
    expect(readKeyDerivation("not json")).toBeUndefined();
    expect(readKeyDerivation({ Comment: "x Key derivation (compared by `npm run plan`, see docs/upgrading.md): {" })).toBeUndefined();
  });
});
