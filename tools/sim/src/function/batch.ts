/**
 * A batch invocation in the simulation (one invocation per batch, statemachines/src/batch.ts). Each record's fault is
 * drawn as for a single invocation of it, and the batch meets it where that record stands:
 * - a crash after the side effect of record i: records 0..i ran (their effects applied), then the runtime died;
 * - a hang or a timeout at record i: records 0..i−1 ran, then the invocation ran out its timeout;
 * - a crash before record i: the others ran, and the answer leaves record i out (an answer that omits a record);
 * - a throttle of record i (its downstream refusing it for now): record i alone answers `retry`, the others run;
 * - a service error of any record: the whole invocation fails with it (Step Functions retries).
 * The workflow then settles each record by its own answer, or invokes it alone (where its fault is drawn again).
 */
import type { Context } from "aws-lambda";
import type { PipelineHandler } from "@effectively-once/functions";
import { exitPayload, timeoutPayload } from "@effectively-once/local-cloud/emulators";
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { FaultKind } from "../scenario/shape";
import type { VirtualClock } from "../clock/virtual-clock";

/** A record of the batch event (BATCH_RECORD_FIELDS). */
export interface BatchRecord {
  readonly messageId: string;
  readonly [field: string]: unknown;
}

type Answer = Awaited<ReturnType<LambdaInvoker>>;

/** What a batch asks of function/downstream.ts's faults (its FunctionFaults), stated here so the two files do not import each other. */
interface BatchFaults {
  decide(messageId: string): { readonly kind: FaultKind; readonly attempt: number } | undefined;
  batchRerun?(messageId: string): void;
}

const STOPPING: ReadonlySet<string> = new Set([FaultKind.FnCrashBefore, FaultKind.FnCrashAfter, FaultKind.FnHang, FaultKind.FnTimeout]);

export function batchInvoker(o: {
  readonly clock: VirtualClock;
  readonly timeoutSeconds: number;
  readonly faults: BatchFaults;
  readonly delay: () => Promise<void>;
  readonly onHandler: (messageId: string) => void;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any result
  readonly handler: PipelineHandler<any>;
  readonly contextOf: (requestId: string, functionArn: string) => Context;
  readonly runStarts: Map<string, number>;
}): (requestId: string, functionArn: string, records: readonly BatchRecord[]) => Promise<Answer> {
  const { clock } = o;
  return async (requestId, functionArn, records) => {
    const decided = records.map((r) => o.faults.decide(String(r.messageId)));
    await o.delay();
    if (decided.some((d) => d?.kind === FaultKind.FnBlip)) {
      throw Object.assign(new Error("Rate Exceeded. (injected, one record of the batch)"), { name: "TooManyRequestsException", $metadata: { httpStatusCode: 429 } });
    }
    const at = decided.findIndex((d) => d !== undefined && STOPPING.has(d.kind));
    const fault = at >= 0 ? decided[at]?.kind : undefined;
    // A throttled record fails on its own (a transient error of its side effect): it answers retry, unrun.
    const throttled = new Set(records.filter((_, i) => decided[i]?.kind === FaultKind.FnThrottle).map((r) => r.messageId));
    const runnable = records.filter((r) => !throttled.has(r.messageId));
    const atRun = at < 0 ? -1 : runnable.indexOf(records[at] as BatchRecord);
    const run =
      atRun < 0 ? runnable
      : fault === FaultKind.FnCrashAfter ? runnable.slice(0, atRun + 1)
      : fault === FaultKind.FnHang || fault === FaultKind.FnTimeout ? runnable.slice(0, atRun)
      : fault === FaultKind.FnCrashBefore ? runnable.filter((_, i) => i !== atRun)
      : runnable;
    const deadline = clock.now() + o.timeoutSeconds * 1000;
    for (const record of run) o.onHandler(String(record.messageId));
    o.runStarts.set(requestId, clock.now());
    const timedOutPayload = { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(timeoutPayload(requestId, o.timeoutSeconds)) };
    const timer = new AbortController();
    const timedOut = clock.sleep(o.timeoutSeconds * 1000, timer.signal).then(
      () => "timeout" as const,
      () => "cancelled" as const,
    );
    const ran = run.length === 0 ? Promise.resolve({ outcomes: [] }) : o.handler({ records: run } as never, o.contextOf(requestId, functionArn));
    const first = await Promise.race([ran.then((value) => ({ value })), timedOut]);
    timer.abort();
    if (first === "timeout" || first === "cancelled") return timedOutPayload;
    // The records that ran before another's fault stopped the whole invocation: each runs again alone.
    const stopped = fault === FaultKind.FnCrashAfter || fault === FaultKind.FnHang || fault === FaultKind.FnTimeout;
    if (stopped) for (const [i, record] of run.entries()) if (fault !== FaultKind.FnCrashAfter || i !== atRun) o.faults.batchRerun?.(String(record.messageId));
    if (fault === FaultKind.FnHang || fault === FaultKind.FnTimeout) {
      await clock.sleep(Math.max(0, deadline - clock.now()));
      return timedOutPayload;
    }
    if (fault === FaultKind.FnCrashAfter) return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(exitPayload(requestId, { code: 1 })) };
    const answered = (first.value as { readonly outcomes: readonly unknown[] }).outcomes;
    const throttledAnswers = [...throttled].map((messageId) => ({ messageId, outcome: "retry", error: "TooManyRequestsException", detail: "Rate Exceeded. (injected)" }));
    return { StatusCode: 200, Payload: JSON.stringify({ outcomes: [...answered, ...throttledAnswers] }) };
  };
}
