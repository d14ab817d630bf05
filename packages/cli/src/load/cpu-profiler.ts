import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** CPU time of the whole process split into this thread and the others (worker threads), over a window. */
export interface ThreadCpu {
  readonly wallMs: number;
  /** All threads, user + system. */
  readonly processCpuMs: number;
  /**
   * CPU time of this thread: from the kernel's scheduler statistics where Linux offers them (exact, even when other
   * processes compete for the cores), else the event loop's busy time.
   */
  readonly mainCpuMs: number;
  /** Time this thread waited for a core while runnable (Linux only; 0 elsewhere): a sign of a crowded machine. */
  readonly mainWaitMs: number;
  /** processCpuMs − mainCpuMs: the worker threads (Lambda environments, fauxqs, dynalite in a worker), libuv, GC helpers. */
  readonly otherThreadsMs: number;
}

/** `[on-CPU ns, run-queue wait ns]` of this process's main thread, or undefined off Linux. */
function schedstat(): [number, number] | undefined {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").trim().split(/\s+/).map(Number);
    return Number.isFinite(cpu) && Number.isFinite(wait) ? [cpu, wait] : undefined;
  } catch {
    return undefined;
  }
}

export function startThreadCpu(): { stop(): ThreadCpu } {
  const wall = Date.now();
  const cpu = process.cpuUsage();
  const elu = performance.eventLoopUtilization();
  const sched = schedstat();
  return {
    stop() {
      const used = process.cpuUsage(cpu);
      const loop = performance.eventLoopUtilization(elu);
      const now = schedstat();
      const processCpuMs = (used.user + used.system) / 1000;
      const mainCpuMs = sched && now ? (now[0] - sched[0]) / 1e6 : loop.active;
      const mainWaitMs = sched && now ? (now[1] - sched[1]) / 1e6 : 0;
      return { wallMs: Date.now() - wall, processCpuMs, mainCpuMs, mainWaitMs, otherThreadsMs: Math.max(0, processCpuMs - mainCpuMs) };
    },
  };
}
