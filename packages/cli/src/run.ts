// The bin's program: the command line of this process, its exit code. Imported first: the SDK's Node 20 notice off.
import "./quiet-sdk";
import { processIo } from "./commands/io";
import { runCli } from "./main";

/**
 * Exits once stdout has taken everything (a piped stdout is written asynchronously: exiting at once would cut a long
 * --json result short). Exiting at all, rather than letting the loop empty, ends the worker threads and sockets a soak
 * or bench may leave behind.
 */
function exitAfterFlush(code: number): void {
  process.stdout.write("", () => process.exit(code));
}

runCli(process.argv.slice(2), processIo()).then(exitAfterFlush, (error: unknown) => {
  process.stderr.write(`effectively-once: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  exitAfterFlush(1);
});
