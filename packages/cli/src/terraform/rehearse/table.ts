/** The per-resource result of a rehearsal's apply. */
export const Outcome = { Created: "created", Skipped: "skipped", Failed: "failed", Blocked: "blocked" } as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

export interface ResourceResult {
  readonly address: string;
  readonly outcome: Outcome;
  /** Seconds the provider took to create it, as terraform reported. */
  readonly seconds?: number;
  readonly note?: string;
}

const COMPLETE = /^(\S+): Creation complete after ((?:\d+h)?(?:\d+m)?\d+s)/gm;
const ERROR_WITH = /^(?:│\s*)?Error: (.+)\n(?:[│\s]*\n)*[│\s]*with (\S+?),/gm;

function seconds(duration: string): number {
  const [, h = "0", m = "0", s = "0"] = /^(?:(\d+)h)?(?:(\d+)m)?(\d+)s$/.exec(duration) ?? [];
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** "Creation complete after 1m5s" lines of `terraform apply`, by address. */
export function creationTimes(applyOutput: string): Map<string, number> {
  return new Map([...applyOutput.matchAll(COMPLETE)].map((m) => [m[1]!, seconds(m[2]!)]));
}

/** "Error: … with <address>," blocks of terraform's diagnostics, by address (the first error of each). */
export function errorsByAddress(output: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of output.matchAll(ERROR_WITH)) if (!found.has(m[2]!)) found.set(m[2]!, m[1]!.trim());
  return found;
}

export interface ResultInput {
  /** Addresses the apply's plan would create. */
  readonly planned: readonly string[];
  /** Addresses in the state after the apply. */
  readonly inState: ReadonlySet<string>;
  /** Left out of the rehearsal, with the reason. */
  readonly skipped: ReadonlyMap<string, string>;
  /** What terraform apply printed (stdout and stderr). */
  readonly applyOutput: string;
}

export function resourceResults(input: ResultInput): ResourceResult[] {
  const times = creationTimes(input.applyOutput);
  const errors = errorsByAddress(input.applyOutput);
  const rows: ResourceResult[] = input.planned.map((address) =>
    input.inState.has(address)
      ? { address, outcome: Outcome.Created, seconds: times.get(address) }
      : errors.has(address)
        ? { address, outcome: Outcome.Failed, note: errors.get(address) }
        : { address, outcome: Outcome.Blocked, note: "not created: the apply stopped at an earlier failure" },
  );
  for (const [address, reason] of input.skipped) rows.push({ address, outcome: Outcome.Skipped, note: reason });
  return rows.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

export function formatResults(rows: readonly ResourceResult[]): string {
  const width = Math.max(8, ...rows.map((r) => r.address.length));
  const lines = [`${"resource".padEnd(width)}  result    time  note`, `${"─".repeat(width)}  ───────  ─────  ────`];
  for (const r of rows) {
    lines.push(`${r.address.padEnd(width)}  ${r.outcome.padEnd(7)}  ${(r.seconds === undefined ? "" : `${r.seconds} s`).padStart(5)}  ${r.note ?? ""}`.trimEnd());
  }
  const count = (o: Outcome) => rows.filter((r) => r.outcome === o).length;
  lines.push(`${count(Outcome.Created)} created, ${count(Outcome.Skipped)} skipped, ${count(Outcome.Failed)} failed, ${count(Outcome.Blocked)} blocked`);
  return lines.join("\n");
}
