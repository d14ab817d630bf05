import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import type { CpuProfile } from "./profile-summary";

/** A V8 CPU profile of this thread (the main thread: interpreter, pipes, SDK clients, dynalite when in process). */
export interface CpuProfiler {
  stop(): Promise<CpuProfile>;
}

/** Starts the inspector's sampling profiler on this thread (`intervalUs` between samples, default 500 µs). */
export async function startCpuProfile(options: { intervalUs?: number } = {}): Promise<CpuProfiler> {
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: options.intervalUs ?? 500 });
  await session.post("Profiler.start");
  return {
    async stop() {
      try {
        const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
        return profile;
      } finally {
        await session.post("Profiler.disable").catch(() => undefined);
        session.disconnect();
      }
    },
  };
}

/** CPU time of the whole process split into this thread and the others (worker threads), over a window. */
export interface ThreadCpu {
  readonly wallMs: number;
  /** All threads, user + system. */
  readonly processCpuMs: number;
  /** Time this thread's event loop was busy (close to its CPU time when it does not block on I/O). */
  readonly mainBusyMs: number;
  /** processCpuMs − mainBusyMs: the worker threads (Lambda environments, fauxqs, dynalite in a worker), libuv, GC helpers. */
  readonly otherThreadsMs: number;
}

export function startThreadCpu(): { stop(): ThreadCpu } {
  const wall = Date.now();
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  return {
    stop() {
      const used = process.cpuUsage(cpu);
      const loop = performance.eventLoopUtilization(elu);
      const processCpuMs = (used.user + used.system) / 1000;
      return { wallMs: Date.now() - wall, processCpuMs, mainBusyMs: loop.active, otherThreadsMs: Math.max(0, processCpuMs - loop.active) };
    },
  };
}
