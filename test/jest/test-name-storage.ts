// jest-circus runs every test inside an AsyncLocalStorage that holds the test's name, read only to name the snapshots
// and expect state of `test.concurrent` tests, which this repository does not use. On Node 20 an enabled
// AsyncLocalStorage adds promise hooks to every promise the process creates: a fifth of the simulation's CPU
// (JSONata, the SDK and the interpreter are promise-heavy). jest's storage is told by the caller of its first `run`
// (jest-circus itself); its tests run without entering it, and every other storage keeps its own behaviour.
import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The prototype is the process's, shared by every test file a worker runs: each file installs its own wrapper around
 * the original `run` (kept here), so no file's realm stays reachable from the next one's.
 */
const ORIGINAL = Symbol.for("effectively-once.jest.async-local-storage-run");
type Run = (this: AsyncLocalStorage<unknown>, store: unknown, callback: (...args: unknown[]) => unknown, ...args: unknown[]) => unknown;
const proto = AsyncLocalStorage.prototype as unknown as { run: Run & { [ORIGINAL]?: Run } };
const run: Run = proto.run[ORIGINAL] ?? proto.run;
const verdicts = new WeakMap<object, boolean>();

/** The file of the function that called `run` (V8's call sites, not the formatted stack). */
function callerFile(): string {
  const holder: { stack?: unknown } = {};
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.prepareStackTrace = (_, frames) => frames;
  Error.stackTraceLimit = 1;
  Error.captureStackTrace(holder, patched);
  const frames = holder.stack as NodeJS.CallSite[];
  Error.prepareStackTrace = prepareStackTrace;
  Error.stackTraceLimit = stackTraceLimit;
  return frames[0]?.getFileName() ?? "";
}

function patched(this: AsyncLocalStorage<unknown>, store: unknown, callback: (...args: unknown[]) => unknown, ...args: unknown[]): unknown {
  let jests = verdicts.get(this);
  if (jests === undefined) verdicts.set(this, (jests = /[\\/]jest-circus[\\/]/.test(callerFile())));
  return jests ? callback(...args) : run.call(this, store, callback, ...args);
}

proto.run = Object.assign(patched, { [ORIGINAL]: run });
