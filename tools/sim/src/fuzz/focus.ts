/**
 * Focused searches (`npm run sim:search -- --focus NAME`): the same simulation and model, over a space shaped around one
 * history the default mix meets too rarely to find in a short budget, with every time, fault and choice in it
 * still drawn at random.
 *
 * `ledger-loss`: a key is applied, its ledger claim may be lost early (the Complete fails after the invocation, an
 * operator releases it, a later message takes the lapsed claim over and releases it), a resend of it comes days
 * later and may exhaust its receives, an operator redrives the DLQ, possibly while the pipe is down, and time runs
 * on: the resend 7 to 10 days after the first send, the redrive 2 to 4 days after it, outages of 1 to 4 days; in a third
 * of the draws the function is rolled back to the previous release before the redrive, which then comes up to 3 days
 * later, the resend 1 to 5 days after the first send (function/deploys.ts). The
 * default mix needs about eight operations in a narrow order and timing for this.
 *
 * `redrive-paths`: a key is applied, a message of the same key (a conflict, a resend a fault sets aside, or an invalid
 * body) is quarantined up to 9 days later, and days later an operator moves the DLQ back by SQS's redrive-policy
 * path (directly, or through a temporary queue and a message-move task: docs/guarantees.md, "paths back from the DLQ"),
 * around the ledger's memory of the key (default 14 d). Its props are drawn with it (`focusSettings`): standard or FIFO
 * queues (a FIFO queue restarts a moved copy's enqueue time), and a pipe filter on a message attribute or none (every
 * send carries the attribute the filter takes, so only a copy that lost it can be dropped).
 *
 * `batch-conflict`: one invocation per batch meets a conflict the function finds. A key is applied, but its ledger claim
 * never completes: its function crashes after the side effect on every receive, so the workflow releases the claim
 * each time while Powertools keeps the key COMPLETED. Seconds to minutes later (a receive's visibility timeout at
 * most) a message of the same key with another payload comes in one batch with up to three new keys, perhaps with a
 * fault of a batch-mate: the ledger lets it claim, the function's second layer answers `conflict` inside the batch's
 * answer, and the workflow must quarantine it (payload-mismatch) on that receive, not hand it back until its receives
 * run out. The default mix draws that pairing (a claim released after the effect, then a conflicting copy in a batch,
 * apart from the first one's receives by more than a lease) too rarely for a short budget.
 */
import fc from "fast-check";
import { FaultKind, type Fault, type MessageAttribute, type Op, type Scenario } from "../scenario/shape";
import type { PropsOverrides } from "../settings";

const HOUR = 3_600_000;

export const FOCUS = ["ledger-loss", "redrive-paths", "batch-conflict"] as const;
export type Focus = (typeof FOCUS)[number];

const bodyOf = (tenantId: string, amount: number, reversed: boolean): string =>
  reversed ? JSON.stringify({ currency: "EUR", amount, orderId: "o", tenantId }) : JSON.stringify({ tenantId, orderId: "o", amount, currency: "EUR" });

/** Whole hours between `min` and `max`, in ms (0: none). */
const hours = (min: number, max: number): fc.Arbitrary<number> => fc.integer({ min, max }).map((h) => h * HOUR);
const jump = (ms: number): Op[] => (ms > 0 ? [{ op: "jump", ms }] : []);

/** Faults that may end a resend's receives, or let a later copy run the handler (crash after, a paused worker). */
const exhausting = fc.oneof(
  { weight: 3, arbitrary: fc.constant(FaultKind.FnCrashAfter) },
  { weight: 4, arbitrary: fc.constantFrom(FaultKind.FnCrashBefore, FaultKind.FnThrottle, FaultKind.LedgerReadFail, FaultKind.FnHang, FaultKind.WorkerPause, FaultKind.CompleteFail) },
);
const someReceives = fc.oneof({ weight: 3, arbitrary: fc.constant([1, 2, 3, 4, 5]) }, { weight: 1, arbitrary: fc.subarray([1, 2, 3, 4, 5], { minLength: 1 }) });

const ledgerLoss: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.nat(),
    pollers: fc.integer({ min: 1, max: 3 }),
    tenant: fc.constantFrom("a", "#"),
    loss: fc.constantFrom("complete-fail", "release", "none"),
    // Resend: when (after the first charge), its payload (a conflict sometimes), its field order, what exhausts it.
    // Times around the edges of the model's windows (default retention 14 d, source queue 4 d: W = 10 d).
    gap: hours(7 * 24, 10 * 24),
    conflict: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
    reversed: fc.boolean(),
    resendFault: fc.option(fc.record({ kind: exhausting, receives: someReceives }), { freq: 6, nil: undefined }),
    // A batch-mate whose invocation hangs on every receive times out the resend's executions.
    hangingMate: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
    beforeRedrive: hours(2 * 24, 4 * 24),
    outage: fc.option(hours(24, 4 * 24), { freq: 4, nil: undefined }),
    after: hours(0, 3 * 24),
    // A rollback, then up to 3 days more, after a resend 1 to 5 days in: a copy past the source queue's retention moves
    // only on a witness's word, and a witness helps only while its memory outlasts the copy's stay in the source queue.
    rollback: fc.option(fc.record({ gap: hours(24, 5 * 24), delay: hours(0, 3 * 24) }), { freq: 2, nil: undefined }),
    extraFault: fc.option(fc.record({ message: fc.nat(2), kind: fc.constantFrom(...Object.values(FaultKind)), receives: someReceives }), { freq: 4, nil: undefined }),
  })
  .map((d): Scenario => {
    const first = bodyOf(d.tenant, 10, false);
    const resend = bodyOf(d.tenant, d.conflict ? 20 : 10, d.reversed);
    const faults: Fault[] = [];
    const ops: Op[] = [{ op: "send", body: first }];
    if (d.loss === "complete-fail") faults.push({ message: 0, kind: FaultKind.CompleteFail, receives: [1] });
    ops.push(...jump(d.rollback?.gap ?? d.gap));
    if (d.loss === "release") ops.push({ op: "release", message: 0 });
    ops.push({ op: "send", body: resend });
    if (d.resendFault) faults.push({ message: 1, ...d.resendFault });
    if (d.hangingMate) {
      ops.push({ op: "send", body: bodyOf("b", 10, false) });
      faults.push({ message: 2, kind: FaultKind.FnHang, receives: [1, 2, 3, 4, 5] });
    }
    if (d.extraFault) faults.push(d.extraFault);
    ops.push(...jump(d.beforeRedrive));
    if (d.outage !== undefined && d.outage > 0) ops.push({ op: "outage", ms: d.outage });
    if (d.rollback !== undefined) ops.push({ op: "rollback" }, ...jump(d.rollback.delay));
    ops.push({ op: "redrive" }, ...jump(d.after));
    const sends = ops.filter((o) => o.op === "send").length;
    return { seed: d.seed, pollers: d.pollers, ops, faults: faults.map((f) => ({ ...f, message: f.message % sends })) };
  });

const redrivePaths: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.nat(),
    pollers: fc.integer({ min: 1, max: 2 }),
    second: fc.constantFrom("conflict", "resend", "invalid"),
    secondFault: fc.option(fc.record({ kind: fc.constantFrom(FaultKind.FnCrashBefore, FaultKind.FnThrottle, FaultKind.LedgerReadFail, ...Object.values(FaultKind)), receives: someReceives }), { freq: 2, nil: undefined }),
    gap: hours(0, 9 * 24),
    beforeMove: hours(1, 12 * 24),
    via: fc.constantFrom("direct" as const, "temporary" as const),
    after: hours(0, 3 * 24),
  })
  .map((d): Scenario => {
    const second = d.second === "invalid" ? "not json" : bodyOf("a", d.second === "conflict" ? 20 : 10, true);
    const send = (body: string): Op => ({ op: "send", body, attributes: [ROUTED] });
    const ops: Op[] = [send(bodyOf("a", 10, false)), ...jump(d.gap), send(second), ...jump(d.beforeMove), { op: "redrive-policy", via: d.via }, ...jump(d.after)];
    return { seed: d.seed, pollers: d.pollers, ops, faults: d.secondFault ? [{ message: 1, ...d.secondFault }] : [] };
  });

const batchConflict: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.nat(),
    pollers: fc.integer({ min: 1, max: 2 }),
    tenant: fc.constantFrom("a", "#"),
    reversed: fc.boolean(),
    // The conflict first, last or between its batch-mates; the mates are new keys.
    mates: fc.integer({ min: 0, max: 3 }),
    position: fc.nat(3),
    // Within one visibility timeout of the first message's receives (the mode's default: 1,140 s).
    gap: fc.integer({ min: 0, max: 1_100 }).map((s) => s * 1000),
    mateFault: fc.option(fc.record({ kind: fc.constantFrom(FaultKind.FnCrashBefore, FaultKind.FnCrashAfter, FaultKind.FnThrottle, FaultKind.FnTimeout), receives: someReceives }), { freq: 3, nil: undefined }),
  })
  .map((d): Scenario => {
    const mates = Array.from({ length: d.mates }, (_, i) => bodyOf(`m${i}`, 10, false));
    const at = d.position % (d.mates + 1);
    const batch = [...mates.slice(0, at), bodyOf(d.tenant, 20, d.reversed), ...mates.slice(at)];
    const ops: Op[] = [{ op: "send", body: bodyOf(d.tenant, 10, false) }, ...(d.gap > 0 ? [{ op: "advance", ms: d.gap } as Op] : []), ...batch.map((body): Op => ({ op: "send", body }))];
    const faults: Fault[] = [{ message: 0, kind: FaultKind.FnCrashAfter, receives: [1, 2, 3, 4, 5] }];
    // A batch-mate's fault (messages 1.. are the batch in send order; the conflict is 1 + at).
    if (d.mateFault && d.mates > 0) faults.push({ message: at === 0 ? 2 : 1, ...d.mateFault });
    return { seed: d.seed, pollers: d.pollers, ops, faults };
  });

/** The attribute every send of `redrive-paths` carries, and the filter pattern that takes it. */
const ROUTED: MessageAttribute = { name: "eventType", dataType: "String", value: "order" };
const ROUTED_PATTERN = { messageAttributes: { eventType: { stringValue: ["order"] } } };

/**
 * The props a focused space draws with each scenario (merged over the search's own settings); none: the search's
 * settings mode alone decides.
 */
export function focusSettings(focus: Focus): fc.Arbitrary<PropsOverrides> | undefined {
  if (focus === "batch-conflict") return fc.constant({ batchInvocation: true });
  if (focus !== "redrive-paths") return undefined;
  return fc.record({ fifo: fc.boolean(), filter: fc.boolean() }).map(({ fifo, filter }): PropsOverrides => ({
    ...(fifo ? { fifo: true } : {}),
    ...(filter ? { filterPatterns: [ROUTED_PATTERN] } : {}),
  }));
}

export function focusArbitrary(focus: Focus): fc.Arbitrary<Scenario> {
  switch (focus) {
    case "ledger-loss":
      return ledgerLoss;
    case "redrive-paths":
      return redrivePaths;
    case "batch-conflict":
      return batchConflict;
  }
}
