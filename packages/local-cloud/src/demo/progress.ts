import type { CloudEvent, LocalCloud } from "../cloud";

export interface ProgressCounts {
  received: number;
  processed: number;
  duplicates: number;
  retried: number;
  quarantined: number;
}

function line(c: ProgressCounts, elapsedMs: number): string {
  return `  ${(elapsedMs / 1000).toFixed(1).padStart(5)} s  received ${c.received}  processed ${c.processed}  duplicates ${c.duplicates}  retried ${c.retried}  quarantined ${c.quarantined}`;
}

/**
 * Live progress from the cloud's events: one line rewritten in place on a terminal, a line a second otherwise
 * (so logs and CI output stay readable).
 */
export function showProgress(cloud: LocalCloud, out: NodeJS.WriteStream = process.stdout): { stop(): ProgressCounts } {
  const counts: ProgressCounts = { received: 0, processed: 0, duplicates: 0, retried: 0, quarantined: 0 };
  const started = Date.now();
  const unsubscribe = cloud.subscribe((event: CloudEvent) => {
    if (event.type === "batch-received") counts.received += event.count;
    else if (event.type === "record-outcome") {
      if (event.outcome === "processed") counts.processed += 1;
      else if (event.outcome === "duplicate") counts.duplicates += 1;
      else if (event.outcome === "retry") counts.retried += 1;
      else counts.quarantined += 1;
    }
  });
  const tty = Boolean(out.isTTY);
  const timer = setInterval(() => out.write(tty ? `\r${line(counts, Date.now() - started)}\x1b[K` : `${line(counts, Date.now() - started)}\n`), tty ? 100 : 1000);
  return {
    stop() {
      clearInterval(timer);
      unsubscribe();
      out.write(`${tty ? "\r" : ""}${line(counts, Date.now() - started)}${tty ? "\x1b[K" : ""}\n`);
      return counts;
    },
  };
}
