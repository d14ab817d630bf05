// cdktf captures a full stack trace for every token it creates (a plain object passed to Error.captureStackTrace, for
// construct metadata nobody reads in a test), and jest maps every frame of it through source maps: seconds per synth.
// A plain object gets V8's own format, unmapped; an Error keeps jest's source-mapped stack. Runs after jest installed
// its mapping (setupFilesAfterEnv).
const mapped = Error.prepareStackTrace;
if (mapped) {
  Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) =>
    error instanceof Error ? mapped(error, frames) : `${String(error)}\n${frames.map((frame) => `    at ${String(frame)}`).join("\n")}`;
}
