// `effectively-once plan`: synthesize, terraform plan (offline without AWS credentials), and print a review of the plan.
import { cleanupInFlightRuns } from "../terraform/plan-stack";
import { main } from "../terraform/plan-cli";
import type { CommandIo } from "./io";

/** Resolves with the exit code (main never rejects); Ctrl-C removes the offline override and temporary state first. */
export async function runPlan(argv: readonly string[], io: CommandIo): Promise<number> {
  const onSignal = (signal: NodeJS.Signals) => {
    cleanupInFlightRuns();
    io.stderr(`plan: interrupted (${signal}); temporary files and the offline override removed`);
    process.exit(130);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, onSignal);
  try {
    return await main(argv, io);
  } finally {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
  }
}
