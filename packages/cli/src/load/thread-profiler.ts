import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import type { CpuProfile } from "./profile-summary";

/** Which part of the local cloud a thread runs, told from its worker script. */
export const ThreadKind = {
  Main: "main thread",
  Lambda: "Lambda environments",
  Sqs: "fauxqs (SQS)",
  Dynamo: "dynalite (worker)",
  Other: "other workers",
} as const;
export type ThreadKind = (typeof ThreadKind)[keyof typeof ThreadKind];

/** One thread's CPU profile and its CPU time over the profiled window. */
export interface ThreadProfile {
  readonly kind: ThreadKind;
  readonly title: string;
  /** On-CPU time from the kernel's scheduler statistics (Linux); undefined where they cannot be read. */
  readonly cpuMs?: number;
  readonly profile: CpuProfile;
}

export interface ThreadProfiler {
  /** Stops every profile; threads that ended during the window are left out. */
  stop(): Promise<ThreadProfile[]>;
}

function kindOf(url: string): ThreadKind {
  if (url.includes("lambda/worker/runtime")) return ThreadKind.Lambda;
  if (url.includes("fauxqs-worker")) return ThreadKind.Sqs;
  if (url.includes("dynalite-worker")) return ThreadKind.Dynamo;
  return ThreadKind.Other;
}

/** How long a worker thread may take to answer an inspector call. */
const CALL_TIMEOUT_MS = 5000;

/** Reads `/proc/thread-self/schedstat` in the thread that evaluates it: on-CPU nanoseconds. */
const SCHEDSTAT = "Number(require('fs').readFileSync('/proc/thread-self/schedstat','utf8').split(' ')[0])";

function mainSchedNs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    return undefined;
  }
}

interface WorkerSession {
  readonly title: string;
  readonly kind: ThreadKind;
  call(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown> | undefined>;
  startNs?: number;
  started: Promise<void>;
}

/**
 * Profiles the main thread and every worker thread (Lambda environments, fauxqs, dynalite when in a worker) through
 * the inspector's NodeWorker domain, from this thread: no change to the workers' code. Workers started later
 * are attached too. Samples are taken on wall time, so the CPU per owner is the sample share × the thread's CPU.
 */
export async function startThreadProfiles(options: { intervalUs?: number } = {}): Promise<ThreadProfiler> {
  const session = new Session();
  session.connect();
  const interval = options.intervalUs ?? 1000;
  const workers = new Map<string, WorkerSession>();
  const pending = new Map<number, { sessionId: string; resolve(message: Record<string, unknown> | undefined): void }>();
  let seq = 0;

  session.on("NodeWorker.receivedMessageFromWorker", (event: { params: { message: string } }) => {
    const message = JSON.parse(event.params.message) as { id?: number };
    if (message.id !== undefined) {
      pending.get(message.id)?.resolve(message as Record<string, unknown>);
      pending.delete(message.id);
    }
  });
  session.on("NodeWorker.detachedFromWorker", (event: { params: { sessionId: string } }) => {
    workers.delete(event.params.sessionId);
    // A thread that ended answers nothing more: release whoever waits on it.
    for (const [id, entry] of pending) {
      if (entry.sessionId !== event.params.sessionId) continue;
      pending.delete(id);
      entry.resolve(undefined);
    }
  });
  session.on("NodeWorker.attachedToWorker", (event: { params: { sessionId: string; workerInfo: { title: string; url: string } } }) => {
    const { sessionId, workerInfo } = event.params;
    const call = (method: string, params: Record<string, unknown> = {}) =>
      new Promise<Record<string, unknown> | undefined>((resolve) => {
        const id = ++seq;
        // A thread that ended may never answer nor be reported detached: give up after a while.
        const timer = setTimeout(() => finish(undefined), CALL_TIMEOUT_MS);
        const finish = (message: Record<string, unknown> | undefined) => {
          clearTimeout(timer);
          pending.delete(id);
          resolve(message);
        };
        pending.set(id, { sessionId, resolve: finish });
        session.post("NodeWorker.sendMessageToWorker", { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => finish(undefined));
      });
    const worker: WorkerSession = { title: workerInfo.title, kind: kindOf(workerInfo.url), call, started: Promise.resolve() };
    worker.started = (async () => {
      worker.startNs = await evaluateNumber(call, SCHEDSTAT);
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval });
      await call("Profiler.start");
    })();
    workers.set(sessionId, worker);
  });

  const mainStart = mainSchedNs();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval });
  await session.post("Profiler.start");
  await session.post("NodeWorker.enable", { waitForDebuggerOnStart: false });

  return {
    async stop() {
      const out: ThreadProfile[] = [];
      try {
        const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
        const mainEnd = mainSchedNs();
        out.push({ kind: ThreadKind.Main, title: "main", cpuMs: mainStart !== undefined && mainEnd !== undefined ? (mainEnd - mainStart) / 1e6 : undefined, profile });
        for (const worker of [...workers.values()]) {
          await worker.started;
          const endNs = await evaluateNumber(worker.call, SCHEDSTAT);
          const stopped = await worker.call("Profiler.stop");
          const workerProfile = (stopped?.result as { profile?: CpuProfile } | undefined)?.profile;
          if (!workerProfile) continue; // the thread ended meanwhile
          const cpuMs = worker.startNs !== undefined && endNs !== undefined ? (endNs - worker.startNs) / 1e6 : undefined;
          out.push({ kind: worker.kind, title: worker.title, cpuMs, profile: workerProfile });
        }
      } finally {
        await session.post("NodeWorker.disable").catch(() => undefined);
        await session.post("Profiler.disable").catch(() => undefined);
        session.disconnect();
      }
      return out;
    },
  };
}

async function evaluateNumber(call: WorkerSession["call"], expression: string): Promise<number | undefined> {
  const answer = await call("Runtime.evaluate", { expression, includeCommandLineAPI: true, returnByValue: true });
  const value = ((answer?.result as { result?: { value?: unknown } } | undefined)?.result?.value);
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
