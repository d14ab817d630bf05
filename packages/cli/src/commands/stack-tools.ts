// The commands that read a synthesized stack: cost, capacity, deployer-policy, preflight.
import { runCapacityCli } from "../capacity/cli";
import { runCostCli } from "../cost/cost-cli";
import { runDeployerPolicyCli } from "../deployer/cli";
import { runPreflightCli } from "../preflight/cli";
import type { CommandIo } from "./io";

export const runCost = async (argv: readonly string[], io: CommandIo): Promise<number> => runCostCli(argv, io);
export const runCapacity = async (argv: readonly string[], io: CommandIo): Promise<number> => runCapacityCli(argv, io);
export const runDeployerPolicy = (argv: readonly string[], io: CommandIo): Promise<number> => runDeployerPolicyCli(argv, io);

/** The account checks write their report on stdout; a failure is one line there too (on stderr with --json). */
export async function runPreflight(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    return await runPreflightCli(argv, { env: io.env, stdout: io.stdout, stderr: io.stderr });
  } catch (error) {
    io.stdout(`preflight: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
