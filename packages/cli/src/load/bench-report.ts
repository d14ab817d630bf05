import { formatTable } from "@effectively-once/local-cloud/harness";
import type { E2eCaseResult } from "./bench-e2e";
import type { BenchOptions } from "./bench-options";

export interface BenchResult {
  readonly options: BenchOptions;
  readonly startedAt: string;
  readonly host: { readonly cpus: number; readonly node: string; readonly loadAverage: readonly number[] };
  readonly cases: readonly E2eCaseResult[];
}

const int = (n: number) => Math.round(n).toLocaleString("en-US");
const ms = (n: number) => `${n.toFixed(1)} ms`;
const pm = (share: number) => `±${(share * 100).toFixed(1)}%`;

function callMix(calls: Record<string, number>, messages: number): string {
  return Object.entries(calls)
    .sort((a, b) => b[1] - a[1])
    .map(([op, n]) => `${op} ${(n / messages).toFixed(2)}`)
    .join(", ");
}

/** The side-by-side table of `npx effectively-once bench`: floor, end to end, ratio, CPU, and where the main thread's time goes. */
export function formatBench(result: BenchResult): string {
  const cases = result.cases;
  const header = ["", ...cases.map((c) => `batch ${c.batchSize}, ${c.batchInvocation ? "one invocation a batch" : "one invocation a record"}`)];
  const row = (label: string, cell: (c: E2eCaseResult) => string) => [label, ...cases.map(cell)];
  const o = result.options;
  const rows: string[][] = [
    row("STORAGE FLOOR (same emulators, AWS SDK v3)", () => ""),
    row("  DynamoDB conditional PutItem, 1 in flight", (c) => `${int(c.floor.dynamoPutSequential)} ops/s`),
    row(`  DynamoDB conditional PutItem, ${o.floorConcurrency} in flight`, (c) => `${int(c.floor.dynamoPutConcurrent)} ops/s`),
    row("  SQS SendMessageBatch (10)", (c) => `${int(c.floor.sqsSend)} msg/s`),
    row("  SQS ReceiveMessage (10) + DeleteMessageBatch", (c) => `${int(c.floor.sqsReceiveDelete)} msg/s`),
    row(`ROUNDS (${o.rounds} × ${o.messages} messages between ${o.floorSeconds} s floor samples, ${Math.round(o.duplicateRatio * 100)}% duplicates, warm)`, () => ""),
    row(`  floor samples, PutItem ${o.floorConcurrency} in flight (median, spread)`, (c) => `${int(c.floorSamples.median)} ops/s ${pm(c.floorSamples.spread)}`),
    row("  throughput (median, spread)", (c) => `${c.throughput.median.toFixed(1)} msg/s ${pm(c.throughput.spread)}`),
    row("  ratio per round", (c) => c.rounds.map((r) => r.ratio.toFixed(2)).join(" ")),
    row("  RATIO to the floor: median", (c) => c.ratio.median.toFixed(2)),
    row("  RATIO spread (every round within)", (c) => pm(c.ratio.spread)),
    row(`END TO END (all ${o.rounds} samples together)`, () => ""),
    row("  throughput", (c) => `${c.run.throughput.toFixed(1)} msg/s`),
    row("  cold start (first send → first outcome)", (c) => `${int(c.coldStartMs)} ms`),
    row("  DynamoDB calls per message (measured)", (c) => c.run.dynamoCallsPerMessage.toFixed(2)),
    row("  DynamoDB ops/s driven by the pipeline", (c) => `${int(c.run.throughput * c.run.dynamoCallsPerMessage)} ops/s`),
    row("  function invocations per message", (c) => (c.run.functionInvocations / c.run.messages).toFixed(3)),
    row("  function duration per invocation (mean)", (c) => (c.run.functionInvocations > 0 ? ms(c.run.functionMs / c.run.functionInvocations) : "")),
    row("  CPU per message: main thread", (c) => ms(c.run.cpu.mainCpuMs / c.run.messages)),
    row("  CPU per message: other threads", (c) => ms(c.run.cpu.otherThreadsMs / c.run.messages)),
    row("  cores busy (process CPU / wall)", (c) => (c.run.cpu.processCpuMs / c.run.cpu.wallMs).toFixed(2)),
    row("  main thread waiting for a core (share of wall)", (c) => `${((c.run.cpu.mainWaitMs / c.run.cpu.wallMs) * 100).toFixed(0)}%`),
    row("  lost / double-applied", (c) => `${c.run.lost} / ${c.run.doubleApplied}`),
  ];
  const profiled = cases.filter((c) => c.profile);
  if (profiled.length > 0) {
    rows.push(row("WHERE THE CPU GOES (profiled run, CPU ms per message by thread and owner)", () => ""));
    const kinds = [...new Set(profiled.flatMap((c) => c.profile!.threads.map((t) => t.kind)))];
    for (const kind of kinds) {
      const of = (c: E2eCaseResult) => c.profile?.threads.find((t) => t.kind === kind);
      rows.push(row(`  ${kind}`, (c) => (of(c) ? `${ms(of(c)!.cpuMs / c.profile!.messages)} (${of(c)!.threads} thread${of(c)!.threads === 1 ? "" : "s"})` : "")));
      const owners = [...new Set(profiled.flatMap((c) => of(c)?.owners.slice(0, 6).map((o) => o.name) ?? []))];
      for (const owner of owners) {
        rows.push(
          row(`    ${owner}`, (c) => {
            const entry = of(c)?.owners.find((o) => o.name === owner);
            return entry ? `${ms(entry.cpuMs / c.profile!.messages)} · ${(entry.share * 100).toFixed(0)}%` : "";
          }),
        );
      }
    }
  }
  const lines = [formatTable(rows, header, ["left", ...cases.map(() => "right" as const)])];
  lines.push("", "DynamoDB calls per message by operation:");
  for (const c of cases) lines.push(`  batch ${c.batchSize}: ${callMix(c.run.dynamoCalls, c.run.messages)}`);
  for (const c of profiled) {
    for (const thread of c.profile!.threads.slice(0, 2)) {
      lines.push("", `Top self-time functions, ${thread.kind}, batch ${c.batchSize} (CPU ms per message · share of the threads' CPU):`);
      const top = thread.functions.slice(0, 10).map((f) => [ms(f.cpuMs / c.profile!.messages), `${(f.share * 100).toFixed(1)}%`, f.name]);
      lines.push(formatTable(top, undefined, ["right", "right", "left"]).replace(/^/gm, "  "));
    }
  }
  lines.push(
    "",
    `Ratio per round = the pipeline sample's DynamoDB ops/s (throughput × measured calls per message) ÷ the mean of the floor`,
    `samples (concurrent PutItem) just before and after it, on the same dynalite; the spread is the farthest round's distance from the median.`,
    `Host: ${result.host.cpus} cores, Node ${result.host.node}, load average at start ${result.host.loadAverage.map((l) => l.toFixed(2)).join(" ")}.`,
  );
  return lines.join("\n");
}
