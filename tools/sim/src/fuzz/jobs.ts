/**
 * `npm run sim:search -- --jobs N`: the search in N processes (one per core), seeds S, S+1, …, the runs shared out, one
 * report. Each process is the same script in worker mode; it sends its report back, and a failure is replayed with
 * the seed of the process that found it.
 */
import { fork } from "node:child_process";
import { emptyTotals, type FuzzReport, type FuzzTotals } from "./search";

/** Set in a worker's environment: run the arguments given and send the report to the parent. */
export const FUZZ_WORKER_ENV = "PIPELINE_FUZZ_WORKER";

/** A report as it crosses the process boundary (sets as arrays). */
export type WireReport = Omit<FuzzReport, "totals"> & { totals: Omit<FuzzTotals, "outcomes" | "transitions"> & { outcomes: string[]; transitions: string[] } };

export type WorkerMessage = { readonly progress: number } | { readonly report: WireReport };

export function toWire(report: FuzzReport): WireReport {
  return { ...report, totals: { ...report.totals, outcomes: [...report.totals.outcomes], transitions: [...report.totals.transitions] } };
}

function fromWire(report: WireReport): FuzzReport {
  return { ...report, totals: { ...report.totals, outcomes: new Set(report.totals.outcomes), transitions: new Set(report.totals.transitions) } };
}

/** `runs` shared out over `jobs` processes, the first ones taking the remainder; none gets 0. */
export function splitRuns(runs: number, jobs: number): number[] {
  const n = Math.max(1, Math.min(jobs, runs));
  return Array.from({ length: n }, (_, i) => Math.floor(runs / n) + (i < runs % n ? 1 : 0));
}

/** One report of the parts: totals added up, the wall time of the whole, the first failure (by process order). */
export function mergeReports(parts: readonly FuzzReport[], elapsedMs: number): FuzzReport {
  const totals = emptyTotals();
  const skipped: Record<string, number> = {};
  for (const p of parts) {
    const t = p.totals;
    totals.runs += t.runs;
    totals.messages += t.messages;
    totals.charges += t.charges;
    totals.executions += t.executions;
    totals.dynamoCalls += t.dynamoCalls;
    totals.invocations += t.invocations;
    totals.virtualMs += t.virtualMs;
    totals.faultsFired += t.faultsFired;
    totals.settingsDrawn += t.settingsDrawn ?? 0;
    totals.domainsDrawn += t.domainsDrawn ?? 0;
    totals.fifoDrawn += t.fifoDrawn ?? 0;
    for (const [fate, n] of Object.entries(t.fates)) totals.fates[fate] = (totals.fates[fate] ?? 0) + n;
    for (const o of t.outcomes) totals.outcomes.add(o);
    for (const tr of t.transitions) totals.transitions.add(tr);
    for (const [c, n] of Object.entries(p.skipped)) skipped[c] = (skipped[c] ?? 0) + n;
    for (const [rule, n] of Object.entries(t.setAside ?? {})) totals.setAside[rule] = (totals.setAside[rule] ?? 0) + n;
  }
  const failed = parts.find((p) => p.failure);
  const first = parts[0];
  return { seed: (failed ?? first).seed, jobs: parts.length, definition: first.definition, shape: first.shape, totals, elapsedMs, skipped, ...(failed?.failure ? { failure: failed.failure } : {}) };
}

/**
 * Runs `script` (the fuzz entry point) once per share of the runs, with `args(runs, seed)` as its arguments, and
 * merges the reports. `onProgress` gets the runs done across all processes.
 */
export async function fuzzInProcesses(options: {
  script: string;
  runs: number;
  seed: number;
  jobs: number;
  args: (runs: number, seed: number) => string[];
  onProgress?: (done: number) => void;
}): Promise<FuzzReport> {
  const started = performance.now();
  const shares = splitRuns(options.runs, options.jobs);
  const done = shares.map(() => 0);
  const parts = await Promise.all(
    shares.map(
      (runs, i) =>
        new Promise<FuzzReport>((resolve, reject) => {
          const child = fork(options.script, options.args(runs, options.seed + i), {
            execArgv: process.execArgv,
            env: { ...process.env, [FUZZ_WORKER_ENV]: "1" },
            stdio: ["ignore", "inherit", "inherit", "ipc"],
          });
          let report: FuzzReport | undefined;
          child.on("message", (m: WorkerMessage) => {
            if ("progress" in m) {
              done[i] = m.progress;
              options.onProgress?.(done.reduce((a, b) => a + b, 0));
            } else report = fromWire(m.report);
          });
          child.on("error", reject);
          child.on("exit", (code) => (report ? resolve(report) : reject(new Error(`fuzz process ${i + 1} (seed ${options.seed + i}) exited with ${code} and no report`))));
        }),
    ),
  );
  return mergeReports(parts, performance.now() - started);
}
