import { INVOCATION_EVENT_FIELDS } from "@effectively-once/contract";
import { ClaimStatus, COMPLETE_UPDATE, LedgerAttribute, LedgerCondition } from "@effectively-once/contract";
import { fatesOfStateOutput, QuarantineReason, RecordOutcome } from "@effectively-once/contract";
import { renderPipelineDefinition } from "@effectively-once/statemachines";
import { PIPELINE_TEST_PARAMS } from "@effectively-once/testing";

type State = Record<string, any>;

/** Every state of the definition, Map and Parallel states' inner states included, by name. */
function statesOf(definition: State): Map<string, State> {
  const out = new Map<string, State>();
  const walk = (states: Record<string, State>) => {
    for (const [name, state] of Object.entries(states)) {
      out.set(name, state);
      if (state.ItemProcessor) walk(state.ItemProcessor.States);
      for (const branch of state.Branches ?? []) walk(branch.States);
    }
  };
  walk(definition.States);
  return out;
}

/** Every value of `field` written as a literal anywhere in the definition. */
function literals(value: unknown, field: string, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => literals(v, field, found));
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === field && typeof v === "string" && !v.startsWith("{%")) found.add(v);
      literals(v, field, found);
    }
  }
  return found;
}

// The definition spells the ledger schema, the outcomes and the event in its own text; these prove it spells them
// as packages/contract/src/ does, so the construct, the local cloud and the tools (which import the contract) cannot drift.
describe("Contract: the rendered state machine agrees with src/contract", () => {
  const definition = renderPipelineDefinition(PIPELINE_TEST_PARAMS) as State;
  const states = statesOf(definition);
  const args = (name: string) => states.get(name)!.Arguments;
  const ledgerKey = [LedgerAttribute.Key, LedgerAttribute.Operation];

  it("claims with the contract's item attributes, status and condition", () => {
    const claim = args("Claim");
    expect(Object.keys(claim.Item).sort()).toEqual(
      [LedgerAttribute.Key, LedgerAttribute.Operation, LedgerAttribute.Status, LedgerAttribute.Owner, LedgerAttribute.ClaimId, LedgerAttribute.PayloadHash, LedgerAttribute.ClaimedAt, LedgerAttribute.LeaseExpiresAt, LedgerAttribute.ExpiresAt].sort(),
    );
    expect(claim.Item[LedgerAttribute.Status]).toEqual({ S: ClaimStatus.InProgress });
    expect(claim.ConditionExpression).toBe(LedgerCondition.Claim);
    expect(claim.ExpressionAttributeNames).toEqual({ "#status": LedgerAttribute.Status });
    expect(claim.ExpressionAttributeValues[":inProgress"]).toEqual({ S: ClaimStatus.InProgress });
  });

  it("inspects, completes and releases the same key, each on the contract's condition", () => {
    for (const name of ["Inspect", "Complete", "Release"]) expect(Object.keys(args(name).Key)).toEqual(ledgerKey);
    expect(args("Complete").ConditionExpression).toBe(LedgerCondition.Complete);
    expect(args("Complete").UpdateExpression).toBe(COMPLETE_UPDATE);
    expect(args("Complete").ExpressionAttributeValues[":completed"]).toEqual({ S: ClaimStatus.Completed });
    expect(args("Complete").ExpressionAttributeValues[":inProgress"]).toEqual({ S: ClaimStatus.InProgress });
    expect(args("Release").ConditionExpression).toBe(LedgerCondition.Release);
  });

  it("invokes the function with exactly the contract's event fields", () => {
    expect(Object.keys(args("Invoke").Payload)).toEqual([...INVOCATION_EVENT_FIELDS]);
  });

  it("ends records with the contract's outcomes and quarantines with its reasons, and nothing else", () => {
    // "follower" only routes a copy to its leader inside the Map; QuarantineFollowers and the contract's follower rule settle it.
    expect([...literals(definition, "outcome")].sort()).toEqual([...Object.values(RecordOutcome), "follower"].sort());
    expect([...literals(definition, "reason")].sort()).toEqual(Object.values(QuarantineReason).sort());
  });

  it("reads a leader's output with its followers by the follower rule", () => {
    const fates = (outcome: string) => fatesOfStateOutput({ messageId: "m1", outcome, followers: ["m2"] }).map((f) => `${f.messageId}:${f.outcome}`);
    expect(fates(RecordOutcome.Processed)).toEqual(["m1:processed", "m2:duplicate"]);
    expect(fates(RecordOutcome.Duplicate)).toEqual(["m1:duplicate", "m2:duplicate"]);
    expect(fates(RecordOutcome.Retry)).toEqual(["m1:retry", "m2:retry"]);
    expect(fates(RecordOutcome.Quarantined)).toEqual(["m1:quarantined"]);
    expect(fatesOfStateOutput({ messageId: "m1", outcome: "follower" })).toEqual([]);
  });
});
