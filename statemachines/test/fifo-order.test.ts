import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import { recordOutcomes } from "@effectively-once/local-cloud/emulators";
import { FIFO_HELD_DETAIL } from "@effectively-once/contract";
import { sqsRecord, startPipelineMachine, type PipelineMachine } from "./support/pipeline-machine";

/** A record of a FIFO source queue: its group, and its receive count. */
const fifoRecord = (messageId: string, group: string, body: string, receiveCount = 1) =>
  sqsRecord(messageId, body, { attributes: { ApproximateReceiveCount: String(receiveCount), MessageGroupId: group, SentTimestamp: "1767225600000" } });
const body = (orderId: string, amount = 10) => JSON.stringify({ tenantId: "fifo", orderId, amount, currency: "EUR" });

/** What the function saw, in order: each invocation's start and end, by order id. */
interface Call {
  readonly orderId: string;
  readonly start: number;
  end?: number;
}

/**
 * When a `slow-*` record may return, given the calls so far: each test says it (an earlier record that a parallel Map
 * would overtake: it waits until its group's next record started, which only a parallel Map does, or until the other
 * groups' records ended). No timing involved, so a loaded machine cannot hide a parallel Map; a 2 s safety net ends
 * the wait if neither happens.
 */
let slowMayEnd: (calls: readonly Call[]) => boolean = () => true;
const started = (calls: readonly Call[], orderId: string) => calls.some((c) => c.orderId === orderId);
const ended = (calls: readonly Call[], orderId: string) => calls.some((c) => c.orderId === orderId && c.end !== undefined);

/** The function: `slow-*` returns when `slowMayEnd` allows, `flaky-*` fails (a transient error: retried), everything else answers at once. */
function recordingLambda(calls: Call[]): LambdaInvoker {
  let tick = 0;
  /** Each waiting slow call's check: true once it may return. */
  let waiters: (() => boolean)[] = [];
  const changed = (): void => void (waiters = waiters.filter((check) => !check()));
  const mayEnd = (): Promise<void> =>
    new Promise((resolve) => {
      const safetyNet = setTimeout(resolve, 2000);
      const check = (): boolean => {
        if (!slowMayEnd(calls)) return false;
        clearTimeout(safetyNet);
        resolve();
        return true;
      };
      if (!check()) waiters.push(check);
    });
  return async (req) => {
    const { payload } = JSON.parse(req.Payload) as { payload: { orderId: string } };
    const call: Call = { orderId: payload.orderId, start: ++tick };
    calls.push(call);
    changed();
    if (payload.orderId.startsWith("slow")) await mayEnd();
    call.end = ++tick;
    changed();
    if (payload.orderId.startsWith("flaky")) return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: "Error", errorMessage: "downstream 503" }) };
    return { StatusCode: 200, Payload: JSON.stringify({ ok: true }) };
  };
}

/** Within each group, every invocation starts after the one before it ended. */
function groupOrderBroken(calls: readonly Call[], groups: readonly (readonly string[])[]): string | undefined {
  for (const group of groups) {
    const mine = group.map((orderId) => calls.find((c) => c.orderId === orderId)).filter((c): c is Call => c !== undefined);
    for (let i = 1; i < mine.length; i++) {
      if (mine[i].start < (mine[i - 1].end ?? Infinity)) return `${mine[i].orderId} started before ${mine[i - 1].orderId} ended`;
    }
  }
  return undefined;
}

const failures = (output: unknown) => ((output as { batchItemFailures: { itemIdentifier: string }[] }).batchItemFailures ?? []).map((f) => f.itemIdentifier);

describe("pipeline.asl.json in FIFO mode: one message group's records in batch order", () => {
  let fifo: PipelineMachine;
  let standard: PipelineMachine;
  const calls: Call[] = [];
  beforeAll(async () => {
    fifo = await startPipelineMachine(recordingLambda(calls), { lambdaRetries: 0, fifo: { maxReceiveCount: 5 } });
    standard = await startPipelineMachine(recordingLambda(calls), { lambdaRetries: 0 });
  });
  afterAll(async () => {
    await fifo.stop();
    await standard.stop();
  });
  beforeEach(() => {
    calls.length = 0;
    slowMayEnd = () => true;
    fifo.quarantined.length = 0;
  });

  const interleaved = (prefix: string) => [
    fifoRecord(`${prefix}-a1`, "account-a", body(`slow-${prefix}-a1`)),
    fifoRecord(`${prefix}-b1`, "account-b", body(`${prefix}-b1`)),
    fifoRecord(`${prefix}-a2`, "account-a", body(`${prefix}-a2`)),
    fifoRecord(`${prefix}-a3`, "account-a", body(`${prefix}-a3`)),
    fifoRecord(`${prefix}-b2`, "account-b", body(`${prefix}-b2`)),
  ];
  /** a1 returns once a2 started (a parallel Map) or group b's records both ended. */
  const interleavedWait = (prefix: string) => (cs: readonly Call[]) => started(cs, `${prefix}-a2`) || (ended(cs, `${prefix}-b1`) && ended(cs, `${prefix}-b2`));
  const interleavedGroups = (prefix: string) => [[`slow-${prefix}-a1`, `${prefix}-a2`, `${prefix}-a3`], [`${prefix}-b1`, `${prefix}-b2`]];

  it("runs a group's records one after another in batch order, other groups beside them", async () => {
    slowMayEnd = interleavedWait("o");
    const run = await fifo.machine.execute(interleaved("o"));
    expect(run.status).toBe("SUCCEEDED");
    expect(failures(run.output)).toEqual([]);
    expect(groupOrderBroken(calls, interleavedGroups("o"))).toBeUndefined();
    // Group b does not wait for group a's slow record: it ran while a1 was still running.
    const a1 = calls.find((c) => c.orderId === "slow-o-a1") as Call;
    expect(calls.find((c) => c.orderId === "o-b2")!.end).toBeLessThan(a1.end as number);
  });

  it("fails on a definition that runs a group's records in parallel (the standard one): the check can fail", async () => {
    slowMayEnd = interleavedWait("p");
    await standard.machine.execute(interleaved("p"));
    expect(groupOrderBroken(calls, interleavedGroups("p"))).toMatch(/p-a2 started before slow-p-a1 ended/);
  });

  it("hands back a record to retry and every later record of its group, unprocessed; other groups go on", async () => {
    const run = await fifo.machine.execute([
      fifoRecord("r-a1", "account-a", body("r-a1")),
      fifoRecord("r-a2", "account-a", body("flaky-r-a2")),
      fifoRecord("r-b1", "account-b", body("r-b1")),
      fifoRecord("r-a3", "account-a", body("r-a3")),
      fifoRecord("r-a4", "account-a", body("r-a4")),
    ]);
    expect(failures(run.output)).toEqual(["r-a2", "r-a3", "r-a4"]);
    expect(calls.map((c) => c.orderId).sort()).toEqual(["flaky-r-a2", "r-a1", "r-b1"]);
  });

  it("settles a quarantined record without holding its group, and acknowledges a duplicate", async () => {
    const run = await fifo.machine.execute([
      fifoRecord("q-1", "g", "{not json"),
      fifoRecord("q-2", "g", body("q-2")),
      fifoRecord("q-3", "g", body("q-2")),
      fifoRecord("q-4", "g", body("q-4")),
    ]);
    expect(failures(run.output)).toEqual([]);
    expect(fifo.quarantined.map((q) => q.MessageAttributes?.reason?.StringValue)).toEqual(["invalid-message"]);
    // q-3 repeats q-2's body: it runs after q-2 completed, finds it applied and is a duplicate (one call).
    expect(calls.map((c) => c.orderId)).toEqual(["q-2", "q-4"]);
  });

  it("quarantines a record that fails on its last receive as retries-exhausted, and runs the rest of its group", async () => {
    const run = await fifo.machine.execute([fifoRecord("l-1", "g", body("flaky-l-1"), 5), fifoRecord("l-2", "g", body("l-2"), 5), fifoRecord("l-3", "h", body("flaky-l-3"), 4)]);
    expect(failures(run.output)).toEqual(["l-3"]);
    const [exhausted] = fifo.quarantined;
    expect(fifo.quarantined).toHaveLength(1);
    expect(exhausted.MessageAttributes?.reason?.StringValue).toBe("retries-exhausted");
    expect(exhausted.MessageAttributes?.originalMessageId?.StringValue).toBe("l-1");
    expect(exhausted.MessageAttributes?.detail?.StringValue).toMatch(/^failed on its last receive \(5 of 5\): downstream failed: /);
    expect(calls.map((c) => c.orderId)).toEqual(expect.arrayContaining(["flaky-l-1", "l-2", "flaky-l-3"]));
  });

  it("sends each quarantine with its record's group and a deduplication id of its own", async () => {
    await fifo.machine.execute([fifoRecord("d-1", "__proto__", "{bad"), fifoRecord("d-2", "hasOwnProperty", "{bad"), fifoRecord("d-3", "__proto__", "{worse")]);
    const sends = [...fifo.quarantined].sort((a, b) => String(a.MessageAttributes?.originalMessageId?.StringValue).localeCompare(String(b.MessageAttributes?.originalMessageId?.StringValue)));
    expect(sends.map((s) => s.MessageGroupId)).toEqual(["__proto__", "hasOwnProperty", "__proto__"]);
    const ids = sends.map((s) => s.MessageDeduplicationId);
    expect(ids.every((id) => typeof id === "string" && /^[0-9a-f]{64}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it("reads group ids as text: __proto__, hasOwnProperty and constructor are three groups", async () => {
    slowMayEnd = (cs) => started(cs, "t-3") || (ended(cs, "t-2") && ended(cs, "flaky-t-4"));
    const run = await fifo.machine.execute([
      fifoRecord("t-1", "__proto__", body("slow-t-1")),
      fifoRecord("t-2", "hasOwnProperty", body("t-2")),
      fifoRecord("t-3", "__proto__", body("t-3")),
      fifoRecord("t-4", "constructor", body("flaky-t-4")),
      fifoRecord("t-5", "constructor", body("t-5")),
    ]);
    expect(failures(run.output)).toEqual(["t-4", "t-5"]);
    expect(groupOrderBroken(calls, [["slow-t-1", "t-3"], ["t-2"], ["flaky-t-4"]])).toBeUndefined();
    expect(calls.map((c) => c.orderId)).not.toContain("t-5");
  });

  it("reports every record's fate once in its states' outputs, a held one with why (as the local cloud reads them)", async () => {
    const run = await fifo.machine.execute([fifoRecord("h-1", "g", body("h-1")), fifoRecord("h-2", "g", body("flaky-h-2")), fifoRecord("h-3", "g", body("h-3"))]);
    expect(failures(run.output)).toEqual(["h-2", "h-3"]);
    const fates = recordOutcomes(run.events, 0).map((e) => `${e.messageId}:${e.outcome}${e.detail === FIFO_HELD_DETAIL ? ":held" : ""}`);
    expect(fates.sort()).toEqual(["h-1:processed", "h-2:retry", "h-3:retry:held"]);
  });
});
