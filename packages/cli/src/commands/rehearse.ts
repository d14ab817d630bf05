// `effectively-once rehearse`: apply → re-plan → change → teardown of the synthesized stack against moto, offline.
import { main } from "../terraform/rehearse/cli";
import { stopRunningTerraform } from "../terraform/rehearse/tf";
import type { CommandIo } from "./io";

/**
 * Ctrl-C: terraform stops first and no new step starts; the run's finally block then stops moto and removes the
 * temporary folder. `on`, not `once`: tsx relays a SIGINT twice, and an unhandled second one would kill us mid-cleanup.
 */
export async function runRehearse(argv: readonly string[], io: CommandIo): Promise<number> {
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    stopRunningTerraform();
    io.stderr(`rehearse: interrupted (${signal}); stopping terraform, then moto`);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, onSignal);
  try {
    const code = await main(argv, io);
    return interrupted ? 130 : code;
  } finally {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.off(signal, onSignal);
  }
}
