/**
 * The model's rules on how the pipeline gets to its outcomes, from the guarantees (docs/guarantees.md), read from what the run
 * recorded (facts/audit.ts) rather than from the implementation:
 *
 * - Transient errors are absorbed where they happen ("Backoff of throttled ledger calls", "Retries of Lambda
 *   service errors"; a record's problem leaves "the rest of the batch unaffected"), and a lease that ran out frees
 *   the key ("another message may take the key over"): a delivery that meets nothing under way on its key, with no
 *   hard fault on that receive, no stall and no operator release, settles its message. Only an execution that runs
 *   out of time hands its whole batch back (documented).
 * - "The execution's output is exactly {batchItemFailures: [...]}": an execution never fails on its own; it runs out
 *   of time only while a hard fault or a stall holds a record up.
 * - "A late worker never touches someone else's claim": the ledger completes a claim only after an invocation made
 *   under that claim returned, and releases it only after one failed (or its Task stopped waiting for it).
 */
import type { Observation, Scenario } from "../scenario/shape";
import type { Verdict, Violation } from "./verdicts";
import { lastReceiveViolations } from "./order";

type Delivery = Observation["deliveries"][number];

const overlaps = (a: Delivery, b: Delivery): boolean => a.startedAt <= b.at && b.startedAt <= a.at;

/**
 * Why a delivery may leave its message unsettled, or undefined when it must settle it: a hard fault on this copy and
 * receive; the host stalling while it was in flight; its execution out of time while a fault or a stall held it up;
 * an operator release of its key; another
 * delivery of its key (or of an identical body) under way at the same time; or an earlier one that did not end
 * cleanly (handed back, faulted, timed out) less than a lease before, since a claim it left may hold the key so long.
 */
function excuser(scenario: Scenario, verdicts: readonly Verdict[], released: ReadonlySet<string>, obs: Observation, leaseMs: number): (d: Delivery) => string | undefined {
  const stalled = scenario.ops.some((o) => o.op === "stall");
  const bodies = scenario.ops.flatMap((o) => (o.op === "send" ? [o.body] : []));
  const keyOf = (i: number): string | undefined => (verdicts[i]?.kind === "valid" ? (verdicts[i] as { key: string }).key : undefined);
  return (d) => {
    if (d.hardFault) return "hard fault";
    // FIFO: handed back behind an earlier record of its group that this execution handed back (facts/audit.ts).
    if (d.heldBehind !== undefined) return "held behind its group";
    // The host stalled while the delivery was in flight: the pipe gave up on it, its visibility ran out.
    if (obs.stalls?.some((s) => d.startedAt <= s.at && s.at <= d.at)) return "stalled";
    if (d.timedOut && (d.batchFaulted || stalled)) return "timed out";
    const key = keyOf(d.message);
    if (key !== undefined && released.has(key)) return "released";
    const related = (e: Delivery) => e !== d && (bodies[e.message] === bodies[d.message] || (key !== undefined && keyOf(e.message) === key));
    for (const e of obs.deliveries) {
      if (!related(e) || e.startedAt > d.at) continue;
      if (overlaps(e, d)) return "concurrent";
      // An invalid body leaves nothing behind; a valid one may leave a claim until its lease runs out.
      const clean = !e.retried && !e.hardFault && !e.timedOut;
      if (key !== undefined && !clean && e.at + leaseMs > d.startedAt) return "lingering claim";
    }
    return undefined;
  };
}

/**
 * Whether every receive of the message's last copy was lost to something outside it (see excuser; with a stall,
 * any execution out of time): the receives may run out.
 */
export function receivesLostToOthers(scenario: Scenario, verdicts: readonly Verdict[], released: ReadonlySet<string>, obs: Observation, message: number, leaseMs: number): boolean {
  const excuse = excuser(scenario, verdicts, released, obs, leaseMs);
  const stalled = scenario.ops.some((o) => o.op === "stall");
  const mine = obs.deliveries.filter((d) => d.message === message);
  const last = mine.filter((d) => d.copy === mine[mine.length - 1]?.copy);
  return last.length > 0 && last.every((d) => excuse(d) !== undefined || (stalled && d.timedOut));
}

/** `released`: the keys an operator's release names (oracle/model.ts). */
export function protocolViolations(scenario: Scenario, verdicts: readonly Verdict[], released: ReadonlySet<string>, obs: Observation, leaseMs: number): Violation[] {
  const out: Violation[] = [];
  const stalled = scenario.ops.some((o) => o.op === "stall");
  for (const e of obs.executions) {
    if (e.answered || (e.status === "TIMED_OUT" && (e.faulted || stalled))) continue;
    out.push({ what: `an execution ended ${e.status}${e.status === "SUCCEEDED" ? " without the documented batchItemFailures answer" : ""}: every error a record meets must end in its own outcome, so the pipe always gets the batch's answer` });
  }
  const excuse = excuser(scenario, verdicts, released, obs, leaseMs);
  for (const d of stalled ? [] : obs.deliveries) {
    const v = verdicts[d.message];
    if (!d.retried || !v || v.kind === "refused" || excuse(d) !== undefined) continue;
    out.push({
      message: d.message,
      key: v.kind === "valid" ? v.key : undefined,
      what: `handed back for a retry on receive ${d.receive} although nothing else was under way on its key and no hard fault hit it: a transient error or a batch-mate's problem cost it a receive`,
    });
  }
  out.push(...unfinished(scenario, verdicts, released, obs));
  out.push(...lastReceiveViolations(obs, stalled, (d) => d.quarantineRefused === true));
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

/**
 * "Complete … or Release … so a late worker never touches someone else's claim": when the last invocation of a
 * delivery returned, its worker completes the claim it invoked under before the execution ends; when it failed (or
 * its Task stopped waiting), the worker releases it. A claim left IN_PROGRESS holds its key until the lease runs out.
 * Not checked where the answer is ambiguous or excused: a stall, an operator release of the key, a fault that keeps
 * the worker from the ledger, an execution out of time, or another delivery of the key under way.
 */
function unfinished(scenario: Scenario, verdicts: readonly Verdict[], released: ReadonlySet<string>, obs: Observation): Violation[] {
  if (scenario.ops.some((o) => o.op === "stall")) return [];
  const keyOf = (i: number): string | undefined => (verdicts[i]?.kind === "valid" ? (verdicts[i] as { key: string }).key : undefined);
  const out: Violation[] = [];
  for (const inv of obs.invocations) {
    if (inv.key === undefined || released.has(inv.key)) continue;
    const returned = inv.ok && inv.abandonedAt === undefined;
    // Its worker is done with it when it answered, or when its Task stopped waiting.
    const done = inv.abandonedAt ?? inv.endedAt;
    const within = obs.deliveries.filter((d) => keyOf(d.message) === inv.key && d.startedAt <= inv.startedAt && done <= d.at);
    if (within.length !== 1) continue;
    const [d] = within;
    if (d.holdsLedger || d.timedOut || obs.deliveries.some((e) => e !== d && keyOf(e.message) === inv.key && e.startedAt <= d.at && d.startedAt <= e.at)) continue;
    if (obs.invocations.some((later) => later !== inv && later.key === inv.key && later.startedAt > inv.startedAt && later.startedAt <= d.at)) continue;
    const claims = obs.ledger.filter((c) => c.kind === "claim" && c.key === inv.key && c.at <= inv.startedAt);
    const claim = claims[claims.length - 1];
    if (claim === undefined || obs.ledger.some((c) => c.kind === "claim" && c.key === inv.key && c.at > claim.at && c.at <= d.at)) continue;
    const kind = returned ? "complete" : "release";
    if (!obs.ledger.some((r) => r.kind === kind && r.key === inv.key && r.claimId === claim.claimId && r.at >= done && r.at <= d.at)) {
      out.push({
        message: d.message,
        key: inv.key,
        what: `its invocation ${returned ? "returned" : "failed"} but claim ${claim.claimId ?? "(none)"} was not ${returned ? "completed" : "released"}: the key stays held until the lease runs out`,
      });
    }
  }
  return out;
}
