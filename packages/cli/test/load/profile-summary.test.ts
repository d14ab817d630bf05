import { moduleOf, summarizeProfile, type CpuProfile } from "../../src/load/profile-summary";
import { summarizeThreads } from "../../src/load/thread-summary";
import { ThreadKind } from "../../src/load/thread-profiler";

const ROOT = "file:///repo";
const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

/**
 * (root) → sendData (dynalite) → writev (native, 30 ms)
 *        → send (aws-sdk) → 20 ms self
 *        → evaluate (jsonata) → 10 ms self
 *        → (idle) 30 ms (the last sample has no successor: 0 ms)
 */
const PROFILE: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame("(root)", ""), children: [2, 4, 5, 6] },
    { id: 2, callFrame: frame("sendData", `${ROOT}/node_modules/dynalite/index.js`, 196), children: [3] },
    { id: 3, callFrame: frame("writev", "") },
    { id: 4, callFrame: frame("send", `${ROOT}/node_modules/@smithy/core/dist-cjs/index.js`) },
    { id: 5, callFrame: frame("evaluate", `${ROOT}/node_modules/jsonata/jsonata.js`, 3483) },
    { id: 6, callFrame: frame("(idle)", "") },
  ],
  startTime: 0,
  endTime: 100_000,
  // One sample per 10 ms; the time until the next sample belongs to a sample.
  samples: [3, 3, 3, 4, 4, 5, 6, 6, 6, 6],
  timeDeltas: [0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000],
};

describe("Function: moduleOf", () => {
  it.each([
    [`${ROOT}/node_modules/@aws-sdk/client-dynamodb/dist-cjs/index.js`, "aws-sdk"],
    [`${ROOT}/node_modules/@smithy/core/index.js`, "aws-sdk"],
    [`${ROOT}/node_modules/memory-level/index.js`, "dynalite"],
    [`${ROOT}/node_modules/fastify/fastify.js`, "fauxqs"],
    [`${ROOT}/packages/local-cloud/src/stepfunctions/states/task.ts`, "interpreter (local-cloud stepfunctions)"],
    [`${ROOT}/packages/local-cloud/src/pipes/runner.ts`, "pipes (local-cloud pipes)"],
    [`${ROOT}/packages/contract/src/decode.ts`, "project (packages)"],
    ["node:events", "node (internal)"],
    ["/tmp/lambda-payments-x/index.js", "function bundle"],
  ])("puts %s in %s", (url, module) => {
    expect(moduleOf(url, "f")).toBe(module);
  });
});

describe("Function: summarizeProfile", () => {
  it("ranks self time by module, by owner (socket writes charged to their caller) and by function, idle left out", () => {
    // Act
    const summary = summarizeProfile(PROFILE);

    // Assert
    expect(summary.totalMs).toBe(100);
    expect(summary.busyMs).toBe(60);
    expect(summary.byModule.map((e) => [e.name, e.ms])).toEqual([["(native)", 30], ["aws-sdk", 20], ["jsonata", 10]]);
    expect(summary.byOwner.map((e) => [e.name, e.ms])).toEqual([["dynalite", 30], ["aws-sdk", 20], ["jsonata", 10]]);
    expect(summary.byOwner[0].share).toBeCloseTo(0.5);
    expect(summary.byFunction[0].name).toBe("writev");
  });
});

describe("Function: summarizeThreads", () => {
  it("charges each owner its share of the samples times the thread's measured CPU, per kind of thread", () => {
    // Act: two Lambda threads that used 10 ms each, one main thread that used 25 ms
    const kinds = summarizeThreads([
      { kind: ThreadKind.Lambda, title: "w1", cpuMs: 10, profile: PROFILE },
      { kind: ThreadKind.Lambda, title: "w2", cpuMs: 10, profile: PROFILE },
      { kind: ThreadKind.Main, title: "main", cpuMs: 25, profile: PROFILE },
    ]);

    // Assert
    expect(kinds.map((k) => [k.kind, k.threads, k.cpuMs])).toEqual([[ThreadKind.Main, 1, 25], [ThreadKind.Lambda, 2, 20]]);
    const lambda = kinds[1];
    expect(lambda.owners.map((o) => [o.name, Math.round(o.cpuMs)])).toEqual([["dynalite", 10], ["aws-sdk", 7], ["jsonata", 3]]);
  });
});
