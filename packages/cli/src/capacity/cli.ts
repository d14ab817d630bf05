import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DEFAULT_ASSUMPTIONS } from "../cost/assumptions";
import { CostModelError } from "../cost/errors";
import { loadPriceBook } from "../cost/prices";
import { renderText } from "../cost/table";
import { renderCapacityChart } from "./chart-svg";
import { CAPACITY_HELP, parseCapacityArgs } from "./cli-options";
import { CapacityInputError } from "./errors";
import { defaultFigures, figuresFromFile, type Figures } from "./figures";
import { loadCapacitySettings } from "./load-settings";
import { monthlyCostAt } from "./monthly-cost";
import { planCapacity } from "./plan";
import { resolveQuotas } from "./quotas";
import { buildCapacityReport } from "./report";
import type { CapacitySettings } from "./settings";

export interface CapacityIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
  /** Injected so tests need not synthesize; defaults to --stack-file or an in-process synth. */
  readonly loadSettings?: (stackFile: string | undefined) => CapacitySettings;
}

/** `npx effectively-once capacity`: returns the exit code (0 ok, 2 bad arguments or input files, 1 anything else). */
export function runCapacityCli(argv: readonly string[], io: CapacityIo): number {
  try {
    const options = parseCapacityArgs(argv);
    if (options.help) {
      io.stdout(CAPACITY_HELP);
      return 0;
    }
    const quotas = resolveQuotas(options.quotasFile, options.quotaFlags);
    if (!options.stackFile && !io.loadSettings) io.stderr("synthesizing the default stack in-process (use --stack-file to read a synthesized one)...");
    const settings = (io.loadSettings ?? loadCapacitySettings)(options.stackFile);
    const { config } = settings;
    const a = { ...DEFAULT_ASSUMPTIONS, functionMs: options.functionMs ?? DEFAULT_ASSUMPTIONS.functionMs };
    let figures: Figures = defaultFigures(config.pipe.batchSize, config.stateMachine.maxConcurrency, a, options.mix);
    if (options.figuresFile) figures = figuresFromFile(options.figuresFile, figures, config.pipe.batchSize);
    const overridden = [options.executionMs, options.pipeOverheadMs, options.functionMs].some((v) => v !== undefined);
    figures = {
      ...figures,
      label: overridden ? `${figures.label}; overridden by flags` : figures.label,
      executionMsPerBatch: options.executionMs ?? figures.executionMsPerBatch,
      pipeOverheadMs: options.pipeOverheadMs ?? figures.pipeOverheadMs,
    };
    const plan = planCapacity(settings, figures, quotas, options.rate, options.headroom, a);
    const cost = monthlyCostAt(options.rate, config, loadPriceBook(), a, figures.mix);

    const chartFile = resolve(options.chartFile);
    mkdirSync(dirname(chartFile), { recursive: true });
    writeFileSync(chartFile, renderCapacityChart(plan, [
      `Figures: ${figures.label}.`,
      "Quotas: AWS defaults (each with its source in npx effectively-once capacity's output); redraw with npx effectively-once capacity --rate N --chart FILE.",
    ]));
    if (options.json) {
      io.stdout(`${JSON.stringify({ plan, settings, figures, quotas, cost, chartFile }, null, 2)}\n`);
      return 0;
    }
    io.stdout(renderText(buildCapacityReport({ plan, settings, figures, quotas, cost, chartFile })));
    io.stdout(`Chart written to ${chartFile}\n`);
    return 0;
  } catch (error) {
    if (error instanceof CapacityInputError) {
      io.stderr(`capacity: ${error.message}`);
      return 2;
    }
    io.stderr(`capacity: ${error instanceof CostModelError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
}
