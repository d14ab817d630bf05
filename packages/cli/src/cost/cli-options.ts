import { parseArgs } from "node:util";
import { BaselineWorkflow, DEFAULT_ASSUMPTIONS, PipesBilling, type Assumptions } from "./assumptions";
import { InvalidInputError } from "./errors";
import { DEFAULT_SCENARIO, MAX_BATCH_SIZE } from "./scenario";
import { StateMachineLogLevel, type DeployedConfig } from "./types";

export const COST_HELP = `Usage: npx effectively-once cost [options]

Cost per million messages of this pipeline on AWS (us-east-1 list prices), from the synthesized configuration,
side by side with a Lambda guard before the side effect and one Express execution per message.

Options
  --stack-file <path>         read cdk.tf.json instead of synthesizing the default stack in-process
  --duplicate-ratio <r>       share of messages repeating an applied key: 0.2 or 20% (default 0)
  --batch-size <n>            records per pipe batch / execution, 1-${MAX_BATCH_SIZE} (default: the stack's)
  --quarantine-ratio <r>      share quarantined as payload-mismatch (default ${DEFAULT_SCENARIO.quarantineRatio})
  --retry-ratio <r>           extra deliveries per message that end in retry (default ${DEFAULT_SCENARIO.retryRatio})
  --messages <n>              messages to price (default 1000000)
  --function-ms <ms>          billed duration of one downstream invocation (default ${DEFAULT_ASSUMPTIONS.functionMs})
  --log-level <level>         function application log level (default: the stack's)
  --log-bytes <n>             bytes of function log per invocation (default: lines at the level × ${DEFAULT_ASSUMPTIONS.functionLogLineBytes} B)
  --sfn-log-level <level>     state machine log level ALL|ERROR|FATAL|OFF (default: the stack's)
  --message-bytes <n>         message body size (default ${DEFAULT_ASSUMPTIONS.messageBodyBytes})
  --pipes-billing <unit>      event (each record is a request, default) | batch (each 64 KB of a batch)
  --baseline-workflow <type>  express (default) | standard
  --prices <path>             prices file (default packages/cli/src/cost/prices.us-east-1.json)
  --json                      print everything as JSON
  --markdown                  print the report as Markdown (for docs/cost.md)
  --help                      this text
`;

export interface CostCliOptions {
  readonly help: boolean;
  readonly json: boolean;
  readonly markdown: boolean;
  readonly stackFile?: string;
  readonly pricesFile?: string;
  readonly messages: number;
  readonly duplicateRatio: number;
  readonly quarantineRatio: number;
  readonly retryRatio: number;
  readonly batchSize?: number;
  readonly functionLogLevel?: string;
  readonly stateMachineLogLevel?: StateMachineLogLevel;
  readonly assumptions: Assumptions;
}

/** Parses `npx effectively-once cost` arguments; a bad value throws InvalidInputError naming the flag and the accepted values. */
export function parseCostArgs(argv: readonly string[]): CostCliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h", default: false },
        json: { type: "boolean", default: false },
        markdown: { type: "boolean", default: false },
        "stack-file": { type: "string" },
        prices: { type: "string" },
        messages: { type: "string" },
        "duplicate-ratio": { type: "string" },
        "quarantine-ratio": { type: "string" },
        "retry-ratio": { type: "string" },
        "batch-size": { type: "string" },
        "function-ms": { type: "string" },
        "log-level": { type: "string" },
        "log-bytes": { type: "string" },
        "sfn-log-level": { type: "string" },
        "message-bytes": { type: "string" },
        "pipes-billing": { type: "string" },
        "baseline-workflow": { type: "string" },
      },
    });
  } catch (error) {
    throw new InvalidInputError(`${(error as Error).message}. Run with --help for the options.`, { cause: error });
  }
  const v = parsed.values;
  if (v.json && v.markdown) throw new InvalidInputError("--json and --markdown: choose one output format");
  const base = DEFAULT_ASSUMPTIONS;
  const pipesBilling = oneOf("--pipes-billing", v["pipes-billing"], Object.values(PipesBilling)) ?? base.pipesBilling;
  const workflow = oneOf("--baseline-workflow", v["baseline-workflow"]?.toUpperCase(), Object.values(BaselineWorkflow)) ?? base.baseline.workflow;
  const logLevel = v["log-level"]?.toUpperCase();
  if (logLevel !== undefined && !["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "CRITICAL", "SILENT"].includes(logLevel)) {
    throw new InvalidInputError(`--log-level ${v["log-level"]}: use TRACE, DEBUG, INFO, WARN, ERROR, CRITICAL or SILENT`);
  }
  return {
    help: v.help === true,
    json: v.json === true,
    markdown: v.markdown === true,
    stackFile: v["stack-file"],
    pricesFile: v.prices,
    messages: number("--messages", v.messages, { min: 1 }) ?? DEFAULT_SCENARIO.messages,
    duplicateRatio: ratio("--duplicate-ratio", v["duplicate-ratio"]) ?? DEFAULT_SCENARIO.duplicateRatio,
    quarantineRatio: ratio("--quarantine-ratio", v["quarantine-ratio"]) ?? DEFAULT_SCENARIO.quarantineRatio,
    retryRatio: number("--retry-ratio", v["retry-ratio"], { min: 0, max: 10 }) ?? DEFAULT_SCENARIO.retryRatio,
    batchSize: number("--batch-size", v["batch-size"], { min: 1, max: MAX_BATCH_SIZE, integer: true }),
    functionLogLevel: logLevel,
    stateMachineLogLevel: oneOf("--sfn-log-level", v["sfn-log-level"]?.toUpperCase(), Object.values(StateMachineLogLevel)),
    assumptions: {
      ...base,
      functionMs: number("--function-ms", v["function-ms"], { min: 1, max: 900_000 }) ?? base.functionMs,
      functionLogBytesOverride: number("--log-bytes", v["log-bytes"], { min: 0, integer: true }) ?? base.functionLogBytesOverride,
      messageBodyBytes: number("--message-bytes", v["message-bytes"], { min: 1, max: 1024 * 1024, integer: true }) ?? base.messageBodyBytes,
      pipesBilling,
      baseline: { ...base.baseline, workflow },
    },
  };
}

/** The stack's configuration with the CLI's overrides applied (log levels). */
export function withOverrides(config: DeployedConfig, options: Pick<CostCliOptions, "functionLogLevel" | "stateMachineLogLevel">): DeployedConfig {
  return {
    ...config,
    stateMachine: { ...config.stateMachine, logLevel: options.stateMachineLogLevel ?? config.stateMachine.logLevel },
    function: { ...config.function, applicationLogLevel: options.functionLogLevel ?? config.function.applicationLogLevel },
  };
}

function number(flag: string, raw: string | undefined, range: { min?: number; max?: number; integer?: boolean }): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw.replace(/_/g, ""));
  const bounds = `${range.min ?? "-∞"}..${range.max ?? "∞"}`;
  if (raw.trim() === "" || !Number.isFinite(value)) throw new InvalidInputError(`${flag} ${raw}: not a number; use ${range.integer ? "a whole number" : "a number"} in ${bounds}`);
  if (range.integer && !Number.isInteger(value)) throw new InvalidInputError(`${flag} ${raw}: use a whole number in ${bounds}`);
  if ((range.min !== undefined && value < range.min) || (range.max !== undefined && value > range.max)) throw new InvalidInputError(`${flag} ${raw}: out of range, use ${bounds}`);
  return value;
}

/** A share written 0.2 or 20%. */
function ratio(flag: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const percent = raw.trim().endsWith("%");
  const value = Number(percent ? raw.trim().slice(0, -1) : raw);
  const result = percent ? value / 100 : value;
  if (raw.trim() === "" || !Number.isFinite(result) || result < 0 || result > 1) {
    throw new InvalidInputError(`${flag} ${raw}: use a share between 0 and 1, or a percentage (0.2 or 20%)`);
  }
  return result;
}

function oneOf<T extends string>(flag: string, raw: string | undefined, allowed: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(raw)) throw new InvalidInputError(`${flag} ${raw}: use one of ${allowed.join(", ")}`);
  return raw as T;
}
