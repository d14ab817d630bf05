/**
 * The model before issue 22, kept only to compare with (the mutant demonstrations in
 * tools/sim/test/oracle/allowance-mutants.test.ts, `npm run sim:mutants -- --oracle wide`): any hard fault on a key, or an operator's
 * release of it, excused retries-exhausted, rejected and payload-mismatch for every message of the key; a DLQ
 * refusal on any receive excused the body's receives running out; a conflict needed only some other payload
 * charged, at any time.
 */
import { ALLOWANCES, Allowance, type AllowanceRule, type MessageFacts } from "./allowances";
import { Fate, FaultKind } from "../scenario/shape";

function keyTouched(f: MessageFacts): boolean {
  const v = f.verdicts[f.message];
  if (v?.kind !== "valid") return false;
  return f.released.has(v.key) || f.verdicts.some((w, i) => w.kind === "valid" && w.key === v.key && f.obs.messages[i]?.faulted === true);
}

const touched = (fate: Fate): AllowanceRule => ({ name: `wide:faulted-key:${fate}`, fate, why: "a hard fault on any message of its key, or a release of it (any kind, any step)", holds: keyTouched });

export const WIDE_ALLOWANCES: readonly AllowanceRule[] = [
  ...ALLOWANCES.filter((r) => r.name !== Allowance.OtherPayloadApplied),
  {
    name: "wide:other-payload-charged",
    fate: Fate.Mismatch,
    why: "another payload of its key was charged (at any time)",
    holds: (f) => {
      const v = f.verdicts[f.message];
      return v?.kind === "valid" && f.charges.some((c) => c.amount !== v.amount || c.currency !== v.currency);
    },
  },
  {
    name: "wide:dlq-refused",
    fate: Fate.RetriesExhausted,
    why: "the DLQ refused the quarantine of its body on some receive (a quarantine-fail on it or an identical copy)",
    holds: (f) => f.bodies.some((b, i) => b === f.bodies[f.message] && (f.obs.messages[i]?.faults ?? []).includes(FaultKind.QuarantineFail)),
  },
  touched(Fate.RetriesExhausted),
  touched(Fate.Rejected),
  touched(Fate.Mismatch),
];
