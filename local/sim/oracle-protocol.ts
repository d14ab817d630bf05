/**
 * The model's rules on how the pipeline gets to its outcomes, from the README's guarantees, read from what the run
 * recorded (audit.ts) rather than from the implementation:
 *
 * - Transient errors are absorbed where they happen ("Backoff of throttled ledger calls", "Retries of Lambda
 *   service errors"; a record's problem leaves "the rest of the batch unaffected"), and a lease that ran out frees
 *   the key ("another message may take the key over"): a delivery that meets nothing under way on its key, with no
 *   hard fault on that receive, no stall and no operator release, settles its message. Only an execution that runs
 *   out of time hands its whole batch back (documented).
 * - "A late worker never touches someone else's claim": the ledger completes a claim only after an invocation made
 *   under that claim returned, and releases it only after one failed (or its Task stopped waiting for it).
 */
import type { Observation, Scenario } from "./scenario";
import type { Verdict, Violation } from "./oracle";

type Delivery = Observation["deliveries"][number];

const overlaps = (a: Delivery, b: Delivery): boolean => a.startedAt <= b.at && b.startedAt <= a.at;

/**
 * Deliveries that must settle their message (see above): no stall in the scenario, no hard fault on this copy and
 * receive, no operator release of its key, no other delivery of its key (or of an identical body) under way at the
 * same time, and every earlier one over; one that was not settled cleanly (handed back, faulted, timed out) over by
 * at least the lease, since a claim it left behind may hold the key that long.
 */
function owed(scenario: Scenario, verdicts: readonly Verdict[], obs: Observation, leaseMs: number): Delivery[] {
  if (scenario.ops.some((o) => o.op === "stall")) return [];
  const bodies = scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
  const keyOf = (i: number): string | undefined => (verdicts[i]?.kind === "valid" ? (verdicts[i] as { key: string }).key : undefined);
  const released = new Set(scenario.ops.flatMap((o) => (o.op === "release" && keyOf(o.message) !== undefined ? [keyOf(o.message) as string] : [])));
  return obs.deliveries.filter((d) => {
    const v = verdicts[d.message];
    if (!v || v.kind === "refused" || d.hardFault || d.timedOut) return false;
    const key = keyOf(d.message);
    if (key !== undefined && released.has(key)) return false;
    const related = (e: Delivery) => e !== d && (bodies[e.message] === bodies[d.message] || (key !== undefined && keyOf(e.message) === key));
    return obs.deliveries.every((e) => {
      if (!related(e) || e.startedAt > d.at) return true;
      if (overlaps(e, d)) return false;
      // An invalid body leaves nothing behind; a valid one may leave a claim until its lease runs out.
      const clean = !e.retried && !e.hardFault && !e.timedOut;
      return key === undefined || clean || e.at + leaseMs <= d.startedAt;
    });
  });
}

export function protocolViolations(scenario: Scenario, verdicts: readonly Verdict[], obs: Observation, leaseMs: number): Violation[] {
  const out: Violation[] = [];
  for (const d of owed(scenario, verdicts, obs, leaseMs)) {
    if (!d.retried) continue;
    const v = verdicts[d.message];
    out.push({
      message: d.message,
      key: v.kind === "valid" ? v.key : undefined,
      what: `handed back for a retry on receive ${d.receive} although nothing else was under way on its key and no hard fault hit it: a transient error or a batch-mate's problem cost it a receive`,
    });
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
