/** docs/construct.md lists every limit the synth enforces, with its value and its source (aws-limits.ts is the owner). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ALARM_ACTIONS_MAX,
  cite,
  GOVCLOUD_PIPES_SOURCE,
  LAMBDA_ENVIRONMENT_SOURCE,
  LAMBDA_RESERVED_VARIABLES,
  LAMBDA_RESERVED_VARIABLES_SOURCE,
  LOG_RETENTION_DAYS,
  NAME_LIMITS,
  PIPE_FILTERS_MAX,
  TERRAFORM_IDENTIFIER_SOURCE,
  CHINA_LAMBDA_XRAY_SOURCE,
  CONCURRENCY_SOURCE,
  LAMBDA_FUNCTION_SOURCE,
} from "../../src/constructs/aws-limits";
import { RUNTIMES_SOURCE } from "../../src/constructs/lambda-runtime";

const doc = readFileSync(join(__dirname, "../../../../docs/construct.md"), "utf8");
const rows = doc.split("\n").filter((line) => line.startsWith("| "));

/** The table row that starts with `label`. */
function row(label: string): string {
  const found = rows.filter((r) => r.startsWith(`| ${label}`));
  if (found.length !== 1) throw new Error(`docs/construct.md: expected one row starting "| ${label}", found ${found.length}`);
  return found[0];
}

describe("docs/construct.md: the table of AWS's limits", () => {
  it.each(Object.values(NAME_LIMITS).map((l) => [l.service, l] as const))("%s: its length and its source", (service, limit) => {
    const line = row(service);
    expect(line).toContain(`${limit.min}–${limit.max.toLocaleString("en-US")} characters`);
    if (limit.source.model) expect(line).toContain(`model \`${limit.source.model}\``);
    if (limit.source.doc) expect(line).toContain(limit.source.doc);
  });

  it("the retention values, the environment, reserved variables, memory, concurrency, runtime, filters, alarm actions, outputs and regions", () => {
    expect(row("Log retention")).toContain(LOG_RETENTION_DAYS.join(", "));
    expect(row("Function environment")).toContain("4,096 bytes");
    expect(row("Function environment")).toContain(LAMBDA_ENVIRONMENT_SOURCE.doc);
    expect(row("Reserved variables")).toContain(`(${LAMBDA_RESERVED_VARIABLES.length})`);
    expect(row("Reserved variables")).toContain(LAMBDA_RESERVED_VARIABLES_SOURCE.doc);
    expect(row("Memory")).toContain("128–10,240 MB");
    expect(row("Memory")).toContain(LAMBDA_FUNCTION_SOURCE.doc);
    expect(row("Reserved concurrency")).toContain("at most 900 with the default 1,000");
    expect(row("Reserved concurrency")).toContain(CONCURRENCY_SOURCE.doc);
    expect(row("Runtime")).toContain(RUNTIMES_SOURCE);
    expect(row("Pipe filters")).toContain(`at most ${PIPE_FILTERS_MAX} patterns`);
    expect(row("Alarm actions")).toContain(`at most ${ALARM_ACTIONS_MAX} ARNs`);
    expect(row("Output names")).toContain(TERRAFORM_IDENTIFIER_SOURCE.doc);
    expect(row("Region")).toContain(GOVCLOUD_PIPES_SOURCE.doc);
    expect(row("`tracing` in China")).toContain(CHINA_LAMBDA_XRAY_SOURCE.doc);
    expect(cite(GOVCLOUD_PIPES_SOURCE)).toBe(GOVCLOUD_PIPES_SOURCE.doc);
  });
});
