import { COST_HELP, parseCostArgs, withOverrides } from "./cli-options";
import { compare, type Comparison } from "./compare";
import { CostModelError, InvalidInputError } from "./errors";
import { fixedMonthlyCosts } from "./fixed-costs";
import { loadDeployedConfig } from "./load-config";
import { BASELINE_PATHS, DESIGN_PATHS } from "./paths";
import { loadPriceBook } from "./prices";
import { buildReport } from "./report";
import { renderMarkdown, renderText } from "./table";
import type { DeployedConfig } from "./types";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (line: string) => void;
  /** Injected so tests need not synthesize; defaults to reading --stack-file or synthesizing in-process. */
  readonly loadConfig?: (stackFile: string | undefined) => DeployedConfig;
}

const MATRIX_DUPLICATE_RATIOS = [0, 0.2, 0.5] as const;

/** `npx effectively-once cost`: returns the exit code (0 ok, 2 bad arguments, 1 anything else). */
export function runCostCli(argv: readonly string[], io: CliIo): number {
  try {
    const options = parseCostArgs(argv);
    if (options.help) {
      io.stdout(COST_HELP);
      return 0;
    }
    const load = io.loadConfig ?? ((stackFile) => loadDeployedConfig({ stackFile }));
    if (!options.stackFile) io.stderr("synthesizing the default stack in-process (use --stack-file to read a synthesized one)...");
    const config = withOverrides(load(options.stackFile), options);
    const book = loadPriceBook(options.pricesFile);
    const scenario = {
      messages: options.messages,
      duplicateRatio: options.duplicateRatio,
      quarantineRatio: options.quarantineRatio,
      retryRatio: options.retryRatio,
      batchSize: options.batchSize ?? config.pipe.batchSize,
    };
    const comparison = compare(config, book, options.assumptions, scenario);
    const batches = [...new Set([scenario.batchSize, 1])];
    const matrix: Comparison[] = [];
    for (const duplicateRatio of MATRIX_DUPLICATE_RATIOS) {
      for (const batchSize of batches) {
        if (duplicateRatio + scenario.quarantineRatio > 1) continue;
        matrix.push(compare(config, book, options.assumptions, { ...scenario, duplicateRatio, batchSize }));
      }
    }
    const fixed = fixedMonthlyCosts(config, book, options.assumptions);
    if (options.json) {
      io.stdout(`${JSON.stringify({ config, scenario, assumptions: options.assumptions, comparison, matrix, fixed, paths: { design: DESIGN_PATHS, baseline: BASELINE_PATHS }, prices: book }, null, 2)}\n`);
      return 0;
    }
    const sections = buildReport({ config, book, assumptions: options.assumptions, comparison, matrix, fixed });
    io.stdout(options.markdown ? renderMarkdown(sections) : renderText(sections));
    return 0;
  } catch (error) {
    if (error instanceof InvalidInputError) {
      io.stderr(`cost: ${error.message}`);
      return 2;
    }
    io.stderr(`cost: ${error instanceof CostModelError ? error.message : (error as Error).stack ?? String(error)}`);
    return 1;
  }
}
