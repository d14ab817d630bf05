"use strict";
// Shifts this thread's wall clock by an offset kept in a SharedArrayBuffer, so the main thread and every worker
// thread of the local cloud (fauxqs, dynalite, Lambda execution environments) read one controllable clock:
// `Date.now()` and `new Date()` return real time + offset, and advancing the offset moves them all at once.
// Plain CommonJS on purpose: worker threads load it with Node's own loader (ESM can import CommonJS), the host
// with require. Timers are untouched: only wall-clock readings move.

/** Each installed `Date` and the buffer it follows (a pooled emulator thread moves on to the next cloud's). */
const followed = new WeakMap();

/** Installs the offset clock on this thread's `Date` (once per realm; later calls must name the same buffer). */
function installOffsetDate(buffer, realm = globalThis) {
  const current = realm.Date;
  if (current.offsetClockBuffer !== undefined) {
    if (current.offsetClockBuffer !== buffer) throw new Error("this thread already follows another local cloud's clock");
    return;
  }
  const state = { buffer, view: new BigInt64Array(buffer) };
  const RealDate = current;
  const realNow = RealDate.now;
  const now = () => realNow() + Number(Atomics.load(state.view, 0));
  function OffsetDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    // `new Date()` is the common call (loggers, SDK signing): a plain construct, no spread through Reflect.
    if (new.target === OffsetDate) return args.length === 0 ? new RealDate(now()) : new RealDate(...args);
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(OffsetDate, RealDate);
  OffsetDate.prototype = RealDate.prototype;
  OffsetDate.now = now;
  Object.defineProperty(OffsetDate, "offsetClockBuffer", { get: () => state.buffer });
  followed.set(OffsetDate, state);
  realm.Date = OffsetDate;
}

/**
 * For an emulator thread that serves one local cloud after another (sqs/worker-server.ts keeps idle ones): its `Date`
 * follows `buffer` from now on, the clock of the cloud it serves next. Never on a cloud's own thread, which keeps one
 * timeline (installOffsetDate refuses a second clock).
 */
function followOffsetClock(buffer, realm = globalThis) {
  const state = followed.get(realm.Date);
  if (!state) return installOffsetDate(buffer, realm);
  state.buffer = buffer;
  state.view = new BigInt64Array(buffer);
}

module.exports = { installOffsetDate, followOffsetClock };
