import type { Clock } from "./clock";

/**
 * One controllable wall clock for the whole local cloud, without real waits: an offset (ms) in a
 * SharedArrayBuffer that the host thread and every worker thread add to their own `Date` (see offset-date.cjs).
 * The interpreter's `$millis()`, the claim's `expiresAt`, Powertools' expiry, the function's downstream items,
 * SQS SentTimestamp and visibility, the TTL sweeper and the operator tools in the same process all read it.
 *
 * Advance it only while the cloud is idle (`drain()` first): timers that are already running keep real time,
 * so an invocation or a batching window that spans a jump would see its deadline pass at once.
 *
 * Not a `Clock` (no `sleep`): the services sleep on a `Clock` and read this offset through `Date`.
 */
export interface SharedClock extends Pick<Clock, "now"> {
  /** Epoch ms, real time + offset. */
  now(): number;
  /** The current offset from real time, in ms. */
  offsetMs(): number;
  /** Moves every thread's clock forward (a negative value moves it back). */
  advance(seconds: number): void;
  /** The shared offset, for worker threads (`workerData`). */
  readonly buffer: SharedArrayBuffer;
}

interface OffsetDateModule {
  installOffsetDate(buffer: SharedArrayBuffer, realm?: { Date: DateConstructor }): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain CommonJS shared with the worker threads
const { installOffsetDate } = require("./offset-date.cjs") as OffsetDateModule;

/** Path of the installer, for worker threads that import it themselves. */
export const OFFSET_DATE_FILE = require.resolve("./offset-date.cjs");

/**
 * The clock of this thread's local clouds: created on first use and installed on this thread's `Date`. One
 * per thread (a second cloud in the same process shares it): one process, one timeline.
 */
let threadClock: SharedClock | undefined;

export function sharedClock(): SharedClock {
  if (threadClock) return threadClock;
  // A module registry reset (jest.isolateModules) loads this file again on a Date that already follows a clock.
  const buffer = (Date as DateConstructor & { offsetClockBuffer?: SharedArrayBuffer }).offsetClockBuffer ?? new SharedArrayBuffer(8);
  const view = new BigInt64Array(buffer);
  installOffsetDate(buffer);
  threadClock = {
    now: () => Date.now(),
    offsetMs: () => Number(Atomics.load(view, 0)),
    advance(seconds: number) {
      if (!Number.isFinite(seconds)) throw new RangeError(`clock.advance: seconds must be a finite number, got ${seconds}`);
      Atomics.add(view, 0, BigInt(Math.round(seconds * 1000)));
    },
    buffer,
  };
  return threadClock;
}
