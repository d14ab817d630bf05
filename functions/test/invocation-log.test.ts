import { Logger } from "@aws-lambda-powertools/logger";
import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "aws-lambda";
import { createInvocationLog } from "../src/invocation-log";

const context = { awsRequestId: "req-1" } as Context;
const silent = () => new Logger({ serviceName: "invocation-log-test", logLevel: "SILENT" });

describe("Function: createInvocationLog", () => {
  it("notes reach the line of the log that opened the invocation, not another log's", async () => {
    // Arrange: two handlers' logs in one process
    const lines: Record<string, unknown>[] = [];
    const capturing = () => {
      const logger = silent();
      jest.spyOn(logger, "info").mockImplementation((...args: unknown[]) => void lines.push(args[1] as Record<string, unknown>));
      return createInvocationLog(logger, () => false);
    };
    const logA = capturing();
    const logB = capturing();

    // Act: B's invocation notes through A's log
    await logA.run({ messageId: "a" }, context, async () => logA.note({ outcome: "applied" }));
    await logB.run({ messageId: "b" }, context, async () => logA.note({ outcome: "stolen" }));

    // Assert
    expect(lines).toEqual([expect.objectContaining({ messageId: "a", outcome: "applied" }), expect.objectContaining({ messageId: "b", outcome: "processed" })]);
  });

  it("many logs in one process share one store, switched off whenever no invocation is open (counted, not timed)", async () => {
    // Arrange: every run and disable of any AsyncLocalStorage, with the store it was called on
    const runs = jest.spyOn(AsyncLocalStorage.prototype, "run");
    const disables = jest.spyOn(AsyncLocalStorage.prototype, "disable");

    // Act: 400 handlers' logs, as a simulation builds one per run, then two invocations that overlap
    for (let i = 0; i < 400; i++) {
      const log = createInvocationLog(silent(), () => false);
      await log.run({ messageId: `m${i}` }, context, async () => log.note({ outcome: "applied" }));
    }
    const disabledBeforeOverlap = disables.mock.calls.length;
    const log = createInvocationLog(silent(), () => false);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = log.run({ messageId: "held" }, context, () => held);
    await log.run({ messageId: "inner" }, context, async () => log.note({ outcome: "applied" }));
    const disabledWhileOneOpen = disables.mock.calls.length - disabledBeforeOverlap;
    release();
    await first;

    // Assert: the logs' runs all used one store (an enabled store costs a step on every promise of the process, so
    // one per log made each later promise slower), and it was switched off after each invocation, but not while
    // another was still open
    const logRuns = runs.mock.calls.filter(([store]) => typeof store === "object" && store !== null && "log" in store);
    const stores = new Set(logRuns.map((_, i) => runs.mock.contexts[runs.mock.calls.indexOf(logRuns[i])]));
    expect(logRuns).toHaveLength(402);
    expect(stores.size).toBe(1);
    const [store] = stores;
    expect(disables.mock.contexts.slice(0, disabledBeforeOverlap).filter((c) => c === store)).toHaveLength(400);
    expect(disabledWhileOneOpen).toBe(0);
    expect(disables.mock.contexts.slice(disabledBeforeOverlap)).toEqual([store]);
    runs.mockRestore();
    disables.mockRestore();
  });
});
