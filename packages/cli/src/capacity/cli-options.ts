import { parseArgs } from "node:util";
import { CapacityInputError } from "./errors";
import { DEFAULT_MIX } from "./figures";

export const CAPACITY_HELP = `Usage: npx effectively-once capacity --rate <msg/s> [options]

What each part of the pipeline needs at a sustained message rate on AWS (Little's law), against AWS's default quotas:
which part saturates first, the highest sustainable rate, the quota increases (or stacks) the rate needs, the monthly
cost, and an SVG chart of utilisation against rate. Every quota prints its source; see docs/capacity.md.

Options
  --rate <n>                 messages per second to plan for (required)
  --stack-file <path>        read cdk.tf.json instead of synthesizing the default stack in-process
  --figures <file>           per-batch figures written by npx effectively-once bench --write-figures <file> (local CPU figures)
  --execution-ms <ms>        one execution of a full batch (default: the cost model's latencies)
  --function-ms <ms>         one invocation of the function (default 45)
  --pipe-overhead-ms <ms>    receive + delete per batch (default 30)
  --duplicate-ratio <r>      share of duplicates, 0.2 or 20% (default ${DEFAULT_MIX.duplicateRatio})
  --quarantine-ratio <r>     share quarantined (default ${DEFAULT_MIX.quarantineRatio})
  --retry-ratio <r>          extra deliveries per message that end in retry (default ${DEFAULT_MIX.retryRatio})
  --hot-key-share <r>        share of messages on the single hottest business key (default ${DEFAULT_MIX.hotKeyShare})
  --quota <id=value>         override one quota, e.g. --quota lambda.concurrency=5000 (repeatable)
  --quotas <file.json>       override quotas from a JSON object {"lambda.concurrency": 5000}
  --headroom <r>             margin kept under every limit (default 20%)
  --chart <file.svg>         where to write the chart (default tmp/capacity/utilisation.svg)
  --json                     print the plan as JSON
  --help                     this text
`;

export interface CapacityCliOptions {
  readonly help: boolean;
  readonly json: boolean;
  readonly rate: number;
  readonly stackFile?: string;
  readonly figuresFile?: string;
  readonly executionMs?: number;
  readonly functionMs?: number;
  readonly pipeOverheadMs?: number;
  readonly mix: typeof DEFAULT_MIX;
  readonly quotaFlags: readonly string[];
  readonly quotasFile?: string;
  readonly headroom: number;
  readonly chartFile: string;
}

const DEFAULT_CHART_FILE = "tmp/capacity/utilisation.svg";

/** Parses `npx effectively-once capacity` arguments; a bad value throws CapacityInputError naming the flag and the fix. */
export function parseCapacityArgs(argv: readonly string[]): CapacityCliOptions {
  let v;
  try {
    v = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h", default: false },
        json: { type: "boolean", default: false },
        rate: { type: "string" },
        "stack-file": { type: "string" },
        figures: { type: "string" },
        "execution-ms": { type: "string" },
        "function-ms": { type: "string" },
        "pipe-overhead-ms": { type: "string" },
        "duplicate-ratio": { type: "string" },
        "quarantine-ratio": { type: "string" },
        "retry-ratio": { type: "string" },
        "hot-key-share": { type: "string" },
        quota: { type: "string", multiple: true },
        quotas: { type: "string" },
        headroom: { type: "string" },
        chart: { type: "string" },
      },
    }).values;
  } catch (error) {
    throw new CapacityInputError(`${(error as Error).message}. Run with --help for the options.`, { cause: error });
  }
  if (v.help) return { help: true, json: false, rate: 0, mix: DEFAULT_MIX, quotaFlags: [], headroom: 0.2, chartFile: DEFAULT_CHART_FILE };
  if (v.rate === undefined) throw new CapacityInputError("--rate is missing: give the messages per second to plan for, e.g. --rate 5000");
  const mix = {
    duplicateRatio: share("--duplicate-ratio", v["duplicate-ratio"]) ?? DEFAULT_MIX.duplicateRatio,
    quarantineRatio: share("--quarantine-ratio", v["quarantine-ratio"]) ?? DEFAULT_MIX.quarantineRatio,
    retryRatio: number("--retry-ratio", v["retry-ratio"], 0, 10) ?? DEFAULT_MIX.retryRatio,
    hotKeyShare: share("--hot-key-share", v["hot-key-share"]) ?? DEFAULT_MIX.hotKeyShare,
  };
  if (mix.duplicateRatio + mix.quarantineRatio > 1) throw new CapacityInputError("--duplicate-ratio + --quarantine-ratio exceed 1: the two shares cannot add up to more than all messages");
  return {
    help: false,
    json: v.json === true,
    rate: number("--rate", v.rate, 0.001, 1e9) as number,
    stackFile: v["stack-file"],
    figuresFile: v.figures,
    executionMs: number("--execution-ms", v["execution-ms"], 1, 300_000),
    functionMs: number("--function-ms", v["function-ms"], 1, 900_000),
    pipeOverheadMs: number("--pipe-overhead-ms", v["pipe-overhead-ms"], 0, 60_000),
    mix,
    quotaFlags: v.quota ?? [],
    quotasFile: v.quotas,
    headroom: share("--headroom", v.headroom) ?? 0.2,
    chartFile: v.chart ?? DEFAULT_CHART_FILE,
  };
}

function number(flag: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.replace(/_/g, ""));
  if (raw.trim() === "" || !Number.isFinite(value)) throw new CapacityInputError(`${flag} ${raw}: not a number; use a number from ${min} to ${max}`);
  if (value < min || value > max) throw new CapacityInputError(`${flag} ${raw}: out of range; use a number from ${min} to ${max}`);
  return value;
}

/** A share written 0.2 or 20%. */
function share(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const value = text.endsWith("%") ? Number(text.slice(0, -1)) / 100 : Number(text);
  if (text === "" || !Number.isFinite(value) || value < 0 || value > 1) throw new CapacityInputError(`${flag} ${raw}: use a share between 0 and 1, or a percentage (0.2 or 20%)`);
  return value;
}
