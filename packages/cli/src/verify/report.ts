/** The report: each probe's facts with AWS's answer beside the local cloud's, then every difference named, then the failed checks. */
import { formatTable } from "@effectively-once/local-cloud/harness";
import type { Comparison } from "./compare";
import type { Probe } from "./types";

const clip = (text: string | undefined, width = 70) => (text === undefined ? "—" : text.length > width ? `${text.slice(0, width - 1)}…` : text);

export function formatReport(comparison: Comparison, probes: readonly Probe[], awsLabel: string | undefined): string {
  const lines: string[] = [];
  for (const p of comparison.probes) {
    const probe = probes.find((x) => x.id === p.probe);
    lines.push("", `${p.probe}: ${probe?.title ?? ""}`, `  protects: ${probe?.protects ?? "?"}`);
    const rows = p.facts.map((f) => [f.differs ? "≠" : f.compared ? "" : "·", clip(f.name, 48), ...(awsLabel ? [clip(f.aws)] : []), clip(f.local)]);
    if (rows.length) lines.push(formatTable(rows, ["", "fact", ...(awsLabel ? [awsLabel] : []), "local cloud"]).replace(/^/gm, "  "));
    for (const e of p.errors) lines.push(`  did not finish: ${e}`);
    for (const f of p.failures) lines.push(`  ✘ ${f}`);
  }
  if (awsLabel) {
    lines.push("", comparison.differences.length ? `${comparison.differences.length} difference(s) between ${awsLabel} and the local cloud:` : `no difference between ${awsLabel} and the local cloud`);
    for (const d of comparison.differences) lines.push(`  ≠ ${d.probe} › ${d.fact}: ${awsLabel} answers ${JSON.stringify(d.aws)}, the local cloud ${JSON.stringify(d.local)}`);
  }
  const failures = comparison.probes.flatMap((p) => p.failures.map((f) => `${p.probe}: ${f}`));
  if (failures.length) lines.push("", `✘ ${failures.length} check(s) failed whatever the other side says:`, ...failures.map((f) => `  ✘ ${f}`));
  lines.push("", "(≠ differs; · shown, not compared: ids, sizes and timings differ by nature)");
  return lines.join("\n");
}
