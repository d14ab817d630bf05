import { cpus, loadavg } from "node:os";
import { runE2eCase } from "./bench-e2e";
import type { BenchOptions } from "./bench-options";
import type { BenchResult } from "./bench-report";

/** Runs every batch size one after the other, each on a fresh local cloud, in this one process. */
export async function runBench(options: BenchOptions, note: (line: string) => void = () => undefined): Promise<BenchResult> {
  const startedAt = new Date().toISOString();
  const host = { cpus: cpus().length, node: process.versions.node, loadAverage: loadavg() };
  const cases = [];
  for (const batchSize of options.batchSizes) cases.push(await runE2eCase(batchSize, options, note));
  return { options, startedAt, host, cases };
}
