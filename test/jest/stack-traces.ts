// cdktf captures a full stack trace for every token it creates (a plain object passed to Error.captureStackTrace, for
// construct metadata nobody reads in a test), and jest maps every frame of it through source maps: seconds per synth.
// A plain object gets V8's own format, unmapped (cdktf reads only the frames); anything else, an Error of any realm
// included, keeps jest's source-mapped stack. Runs after jest installed its mapping (setupFilesAfterEnv).
const mapped = Error.prepareStackTrace;
if (mapped) {
  Error.prepareStackTrace = (error: unknown, frames: NodeJS.CallSite[]) =>
    error !== null && typeof error === "object" && Object.getPrototypeOf(error) === Object.prototype
      ? `${String(error)}\n${frames.map((frame) => `    at ${String(frame)}`).join("\n")}`
      : mapped(error as Error, frames);
}
