import { Logger } from "@aws-lambda-powertools/logger";
import type { Context } from "aws-lambda";
import { createInvocationLog } from "../src/invocation-log";

const context = { awsRequestId: "req-1" } as Context;
const silent = () => new Logger({ serviceName: "invocation-log-test", logLevel: "SILENT" });

/** Milliseconds to create and settle `n` promises (the cost every enabled AsyncLocalStorage adds to). */
async function promiseCost(n: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < n; i++) await Promise.resolve(i);
  return performance.now() - started;
}

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

  it("many logs in one process, each used once, leave promises as cheap as before (one store, off when idle)", async () => {
    // Arrange: a warm baseline
    await promiseCost(50_000);
    const before = await promiseCost(50_000);

    // Act: 400 handlers' logs, as a simulation builds one per run
    for (let i = 0; i < 400; i++) {
      const log = createInvocationLog(silent(), () => false);
      await log.run({ messageId: `m${i}` }, context, async () => log.note({ outcome: "applied" }));
    }
    const after = await promiseCost(50_000);

    // Assert: one store per log, left enabled, made this ~100 times slower; the ratio leaves room for a loaded machine
    expect(after / before).toBeLessThan(4);
  });
});
