import { summarizeProfile } from "./profile-summary";
import type { ThreadKind, ThreadProfile } from "./thread-profiler";

/** CPU of one kind of thread, split by owner module. */
export interface ThreadKindSummary {
  readonly kind: ThreadKind;
  readonly threads: number;
  /** On-CPU time of these threads (sampled wall time where the kernel's figures are missing). */
  readonly cpuMs: number;
  /** CPU charged to each owner: its share of the samples × the thread's CPU, summed over the threads. */
  readonly owners: readonly { readonly name: string; readonly cpuMs: number; readonly share: number }[];
  /** The functions with the most self time, charged the same way. */
  readonly functions: readonly { readonly name: string; readonly cpuMs: number; readonly share: number }[];
}

/** Groups thread profiles by kind; within each, turns sample shares into CPU time per owner module. */
export function summarizeThreads(threads: readonly ThreadProfile[], top = 8): ThreadKindSummary[] {
  const kinds = new Map<ThreadKind, { threads: number; cpuMs: number; owners: Map<string, number>; functions: Map<string, number> }>();
  for (const thread of threads) {
    const summary = summarizeProfile(thread.profile, { top: 1000 });
    const cpuMs = thread.cpuMs ?? summary.busyMs;
    const entry = kinds.get(thread.kind) ?? { threads: 0, cpuMs: 0, owners: new Map<string, number>(), functions: new Map<string, number>() };
    kinds.set(thread.kind, entry);
    entry.threads += 1;
    entry.cpuMs += cpuMs;
    for (const owner of summary.byOwner) entry.owners.set(owner.name, (entry.owners.get(owner.name) ?? 0) + owner.share * cpuMs);
    for (const fn of summary.byFunction) entry.functions.set(fn.name, (entry.functions.get(fn.name) ?? 0) + fn.share * cpuMs);
  }
  const rank = (map: Map<string, number>, total: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, cpuMs]) => ({ name, cpuMs, share: total > 0 ? cpuMs / total : 0 }));
  return [...kinds]
    .map(([kind, entry]) => ({
      kind,
      threads: entry.threads,
      cpuMs: entry.cpuMs,
      owners: rank(entry.owners, entry.cpuMs),
      functions: rank(entry.functions, entry.cpuMs),
    }))
    .sort((a, b) => b.cpuMs - a.cpuMs);
}
