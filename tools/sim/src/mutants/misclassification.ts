/**
 * Mutants that misclassify a failure: the state machine quarantines, as a conflict or as rejected, an error the
 * contract says is worth a retry (a ledger error, a function timeout, a crash, a throttle), or reads another
 * message's live claim as a conflict. Each is what the model's old blanket excuse ("the key saw a fault") let live:
 * a false conflict or a false rejection the downstream would have accepted.
 */
import type { Mutant } from "./mutant";

type Json = Record<string, unknown>;

/** A deep copy of the definition and the states of its record processor (ProcessBatch's ItemProcessor). */
function processor(definition: Json): [Json, Record<string, Json>] {
  const copy = JSON.parse(JSON.stringify(definition)) as Json;
  const batch = (copy.States as Record<string, Json>).ProcessBatch;
  return [copy, (batch.ItemProcessor as Json).States as Record<string, Json>];
}

const quarantineAs = (reason: string, detail: string): Json => ({ reason, detail });

/** The Catch-all of each ledger state goes to Quarantine with `reason` instead of its retry path. */
function ledgerErrorsAs(reason: string): Mutant {
  return {
    id: `ProcessBatch/Ledger:errors-as:${reason}`,
    description: `ProcessBatch/Claim, Inspect, Complete, Release: any ledger error quarantined as ${reason}`,
    apply: (d) => {
      const [copy, states] = processor(d);
      for (const name of ["Claim", "Inspect", "Complete", "Release"]) {
        const all = ((states[name].Catch ?? []) as Json[]).find((c) => (c.ErrorEquals as string[]).includes("States.ALL"));
        if (!all) throw new Error(`mutant: ${name} has no Catch-all`);
        all.Next = "Quarantine";
        all.Assign = quarantineAs(reason, `${name} failed`);
      }
      return copy;
    },
  };
}

/**
 * Invoke quarantines these errors with `reason` instead of retrying the record: a Catch ahead of the others, or
 * for States.ALL (which must come last) the Catch-all itself.
 */
function invokeErrorsAs(label: string, errors: readonly string[], reason: string): Mutant {
  return {
    id: `ProcessBatch/Invoke:${label}-as:${reason}`,
    description: `ProcessBatch/Invoke: ${errors.join(", ")} quarantined as ${reason}`,
    apply: (d) => {
      const [copy, states] = processor(d);
      const catches = states.Invoke.Catch as Json[];
      const assign = { disposition: "quarantine", ...quarantineAs(reason, `${label} quarantined`) };
      const all = catches.find((c) => (c.ErrorEquals as string[]).includes("States.ALL"));
      if (errors.includes("States.ALL") && all) all.Assign = assign;
      else catches.unshift({ ErrorEquals: [...errors], Next: "Release", Assign: assign });
      return copy;
    },
  };
}

/** Decide's last rule (another message holds a live claim: retry later) quarantines as a conflict instead. */
const liveClaimAsConflict: Mutant = {
  id: "ProcessBatch/Decide:live-claim-as:payload-mismatch",
  description: "ProcessBatch/Decide: a live claim of another message read as a conflict (quarantined as payload-mismatch)",
  apply: (d) => {
    const [copy, states] = processor(d);
    const rules = states.Decide.Choices as Json[];
    const last = rules[rules.length - 1];
    last.Next = "Quarantine";
    last.Assign = quarantineAs("payload-mismatch", "key held by another message");
    return copy;
  },
};

/** Decide's conflict rule hands the record back instead of quarantining it: its receives run out, no reason given. */
const conflictRetried: Mutant = {
  id: "ProcessBatch/Decide:conflict-as:retry",
  description: "ProcessBatch/Decide: a conflict the ledger finds handed back for a retry (its receives run out)",
  apply: (d) => {
    const [copy, states] = processor(d);
    const conflict = (states.Decide.Choices as Json[]).find((r) => (r.Assign as Json | undefined)?.reason === "payload-mismatch");
    if (!conflict) throw new Error("mutant: Decide has no conflict rule");
    conflict.Next = "RetryLater";
    return copy;
  },
};

export function misclassificationMutants(): Mutant[] {
  return [
    ledgerErrorsAs("payload-mismatch"),
    ledgerErrorsAs("rejected"),
    invokeErrorsAs("timeout", ["Sandbox.Timedout", "States.Timeout"], "rejected"),
    invokeErrorsAs("crash", ["Runtime.ExitError"], "rejected"),
    invokeErrorsAs("throttle", ["Lambda.TooManyRequestsException"], "rejected"),
    invokeErrorsAs("any-failure", ["States.ALL"], "payload-mismatch"),
    liveClaimAsConflict,
    conflictRetried,
  ];
}
