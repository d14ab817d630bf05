import { DDB_SEPARATORS, dropOneClause, mutantsOf } from "../../src/mutants/semantic";
import { simSettings } from "../../src/settings";
import { PER_RECORD_MUTATE_SETTINGS } from "../../src/mutants/batch";
import { MutantStatus, mutateTable } from "../../src/mutants/mutate";

describe("Function: dropOneClause", () => {
  it("drops each OR term and each AND factor, also inside parentheses", () => {
    const out = dropOneClause("attribute_not_exists(pk) OR expiresAt < :now OR (#status = :p AND leaseExpiresAt < :now)", DDB_SEPARATORS.or, DDB_SEPARATORS.and);
    expect(out).toEqual([
      { dropped: "attribute_not_exists(pk)", text: "expiresAt < :now OR (#status = :p AND leaseExpiresAt < :now)" },
      { dropped: "expiresAt < :now", text: "attribute_not_exists(pk) OR (#status = :p AND leaseExpiresAt < :now)" },
      { dropped: "(#status = :p AND leaseExpiresAt < :now)", text: "attribute_not_exists(pk) OR expiresAt < :now" },
      { dropped: "#status = :p", text: "attribute_not_exists(pk) OR expiresAt < :now OR (leaseExpiresAt < :now)" },
      { dropped: "leaseExpiresAt < :now", text: "attribute_not_exists(pk) OR expiresAt < :now OR (#status = :p)" },
    ]);
  });
});

describe("Function: mutantsOf", () => {
  const definition = simSettings(PER_RECORD_MUTATE_SETTINGS).definition;
  const mutants = mutantsOf(definition);

  it("covers the protocol's checks: claim condition clauses, claim id and expiry conjuncts, Release, Catch, Retry", () => {
    const ids = mutants.map((m) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Claim:condition-drop:expiresAt < :now/),
        expect.stringMatching(/Complete:condition-drop:claimId = :claimId/),
        expect.stringMatching(/Release:condition-none/),
        expect.stringMatching(/Decide:choice-\d:drop:\$holder\.claimId\.S = \$claimId/),
        expect.stringMatching(/Decide:choice-\d:drop:\$number\(\$holder\.expiresAt\.N\) >= \$now/),
        expect.stringMatching(/Release:skip/),
        expect.stringMatching(/Invoke:catch-0:remove/),
        expect.stringMatching(/Claim:retry-0:without:/),
        expect.stringMatching(/Decide:choice-0:negate/),
      ]),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("each mutant changes the definition and leaves the original alone", () => {
    const before = JSON.stringify(definition);
    for (const m of mutants) expect(JSON.stringify(m.apply(definition))).not.toBe(before);
    expect(JSON.stringify(definition)).toBe(before);
  });
});

describe("Mutant isolation", () => {
  it("a mutant of one state's Retry leaves the other states' Retry alone (the renderer shares one array)", () => {
    const definition = simSettings(PER_RECORD_MUTATE_SETTINGS).definition;
    const mutant = mutantsOf(definition).find((m) => m.id.startsWith("ProcessBatch/Claim:retry-0:without:"));
    expect(mutant).toBeDefined();
    const mutated = mutant?.apply(definition) as { States: { ProcessBatch: { ItemProcessor: { States: Record<string, { Retry?: { ErrorEquals: string[] }[] }> } } } };
    const inner = mutated.States.ProcessBatch.ItemProcessor.States;
    expect(inner.Claim.Retry?.[0].ErrorEquals.length).toBe((inner.Inspect.Retry?.[0].ErrorEquals.length ?? 0) - 1);
  });
});

describe("Function: mutateTable", () => {
  it("counts killed, survived and equivalent mutants per state and in all", () => {
    const definition = simSettings(PER_RECORD_MUTATE_SETTINGS).definition;
    const all = mutantsOf(definition);
    const claim = all.find((m) => m.id.startsWith("ProcessBatch/Claim:"))!;
    const inspect = all.find((m) => m.id.startsWith("ProcessBatch/Inspect:"))!;
    const table = mutateTable([
      { mutant: claim, status: MutantStatus.Killed, note: "", runs: 1 },
      { mutant: claim, status: MutantStatus.Survived, note: "", runs: 1 },
      { mutant: inspect, status: MutantStatus.Equivalent, note: "", runs: 1 },
    ]);
    expect(table.split("\n")[0]).toMatch(/^state\s+killed\s+survived\s+equivalent$/);
    expect(table).toMatch(/ProcessBatch\/Claim\s+1\s+1\s+0/);
    expect(table).toMatch(/ProcessBatch\/Inspect\s+0\s+0\s+1/);
    expect(table).toMatch(/all\s+1\s+1\s+1/);
  });
});
