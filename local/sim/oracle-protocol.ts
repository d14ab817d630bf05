/**
 * The model's rules on how the pipeline gets to its outcomes, from the README's guarantees, read from what the run
 * recorded (audit.ts) rather than from the implementation:
 *
 * - Transient errors are absorbed where they happen ("Backoff of throttled ledger calls", "Retries of Lambda
 *   service errors"; a record's problem leaves "the rest of the batch unaffected"): a message that meets nothing in
 *   flight on its key, touched by no hard fault, no stall and no operator release, is settled by the first
 *   execution that receives it. Only an execution that runs out of time hands its whole batch back (documented).
 * - "A late worker never touches someone else's claim": the ledger completes a claim only after an invocation made
 *   under that claim returned, and releases it only after one failed (or its Task stopped waiting for it).
 */
import type { Observation, Scenario } from "./scenario";
import type { Verdict, Violation } from "./oracle";

/**
 * Messages whose first delivery must settle them (see above), by index: no stall in the scenario, no hard fault on
 * the message or its key, no release of its key, and every other message with its key settled before it arrived
 * (all their deliveries over, the last not handed back), so nothing it meets in the ledger is in flight.
 */
function settledAtOnce(scenario: Scenario, verdicts: readonly Verdict[], obs: Observation): number[] {
  if (scenario.ops.some((o) => o.op === "stall")) return [];
  const keyOf = (i: number): string | undefined => (verdicts[i]?.kind === "valid" ? (verdicts[i] as { key: string }).key : undefined);
  const touched = new Set<string>();
  verdicts.forEach((_, i) => obs.messages[i]?.faulted && keyOf(i) !== undefined && touched.add(keyOf(i) as string));
  for (const o of scenario.ops) if (o.op === "release" && keyOf(o.message) !== undefined) touched.add(keyOf(o.message) as string);
  // Identical copies in one batch share the first one's fate, faults included.
  const bodies = scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
  const faultedBodies = new Set(bodies.filter((_, i) => obs.messages[i]?.faulted));
  return verdicts.flatMap((v, i) => {
    if (v.kind === "refused" || obs.messages[i]?.faulted || faultedBodies.has(bodies[i])) return [];
    if (v.kind === "invalid") return [i];
    if (touched.has(v.key)) return [];
    const first = obs.deliveries.find((d) => d.message === i);
    if (!first) return [];
    const settledBefore = verdicts.every((w, j) => {
      if (j === i || w.kind !== "valid" || w.key !== v.key) return true;
      const theirs = obs.deliveries.filter((d) => d.message === j);
      return theirs.length > 0 && theirs.every((d) => d.at < first.startedAt) && !theirs[theirs.length - 1].retried;
    });
    return settledBefore ? [i] : [];
  });
}

export function protocolViolations(scenario: Scenario, verdicts: readonly Verdict[], obs: Observation): Violation[] {
  const out: Violation[] = [];
  for (const i of settledAtOnce(scenario, verdicts, obs)) {
    const first = obs.deliveries.find((d) => d.message === i);
    if (first?.retried && !first.timedOut) {
      const v = verdicts[i];
      out.push({
        message: i,
        key: v.kind === "valid" ? v.key : undefined,
        what: "handed back for a retry by its first execution, with a key of its own and no hard fault: a transient error or a batch-mate's problem cost it a receive",
      });
    }
  }
  for (const [index, e] of obs.ledger.entries()) {
    if (e.kind === "claim") continue;
    const claim = obs.ledger.slice(0, index).reverse().find((c) => c.kind === "claim" && c.key === e.key && c.claimId === e.claimId);
    const wanted = e.kind === "complete";
    // Released: an invocation under the claim failed, or its Task stopped waiting for it (timeout).
    const under = claim === undefined ? [] : obs.invocations.filter((inv) => inv.key === e.key && inv.startedAt >= claim.at);
    const made = wanted
      ? under.some((inv) => inv.ok && inv.endedAt <= e.at && inv.abandonedAt === undefined)
      : under.some((inv) => (!inv.ok && inv.endedAt <= e.at) || (inv.abandonedAt !== undefined && inv.abandonedAt <= e.at));
    if (!made) {
      out.push({
        key: e.key,
        what: `the ledger ${e.kind === "complete" ? "completed" : "released"} claim ${e.claimId ?? "(none)"} with no invocation under it that ${wanted ? "returned" : "failed"}: a late worker touched someone else's claim`,
      });
    }
  }
  return out;
}
