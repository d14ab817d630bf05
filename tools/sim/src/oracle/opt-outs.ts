/**
 * What the guarantee does not cover, by the stack's own choice: the props `allowUnguardedDlqMoves` and
 * `allowQueuePurge` let SQS's native DLQ move and a purge through (docs/guarantees.md, "native moves"). Under such a
 * stack, a violation about a message whose copy the allowed action took, or about that message's key, is set aside by
 * the opt-out's name and counted, never passed in silence. Under the default props both actions are refused by the
 * queue policies, so nothing is set aside: the search holds the pipeline to every rule.
 */
import type { NativeActionFact, Observation } from "../scenario/shape";
import type { Verdict, Violation } from "./verdicts";

export const OptOut = {
  NativeMoves: "native-moves-opted-in",
  Purge: "purge-opted-in",
} as const;
export type OptOut = (typeof OptOut)[keyof typeof OptOut];

/** Which of SQS's own actions the stack lets through (the props of the run). */
export interface OptOuts {
  readonly nativeMoves: boolean;
  readonly purge: boolean;
}

interface OptOutRule {
  readonly name: OptOut;
  readonly action: NativeActionFact["action"];
  readonly why: string;
  readonly applies: (o: OptOuts) => boolean;
}

const OPT_OUT_RULES: readonly OptOutRule[] = [
  {
    name: OptOut.NativeMoves,
    action: "native-move",
    why: "allowUnguardedDlqMoves: a native DLQ move skips every redrive guard (new message id, enqueue time and retention)",
    applies: (o) => o.nativeMoves,
  },
  {
    name: OptOut.Purge,
    action: "purge",
    why: "allowQueuePurge: a purge deletes every message of the queue",
    applies: (o) => o.purge,
  },
];

/** Splits a run's violations into those a named opt-out covers (with the rule's name) and the rest. */
export function setAsideByOptOuts(
  found: readonly Violation[],
  obs: Observation,
  verdicts: readonly Verdict[],
  optOuts: OptOuts | undefined,
): { kept: Violation[]; setAside: { rule: OptOut; violation: Violation }[] } {
  if (!optOuts) return { kept: [...found], setAside: [] };
  const covered = OPT_OUT_RULES.filter((rule) => rule.applies(optOuts)).map((rule) => {
    const messages = new Set((obs.nativeActions ?? []).filter((a) => a.action === rule.action && !a.refused).flatMap((a) => a.messages));
    const keys = new Set([...messages].flatMap((i) => (verdicts[i]?.kind === "valid" ? [(verdicts[i] as Verdict & { kind: "valid" }).key] : [])));
    return { rule: rule.name, covers: (v: Violation) => (v.message !== undefined && messages.has(v.message)) || (v.key !== undefined && keys.has(v.key)) };
  });
  const kept: Violation[] = [];
  const setAside: { rule: OptOut; violation: Violation }[] = [];
  for (const violation of found) {
    const by = covered.find((c) => c.covers(violation));
    if (by) setAside.push({ rule: by.rule, violation });
    else kept.push(violation);
  }
  return { kept, setAside };
}
