/**
 * Virtual time for the deterministic simulation. Nothing waits on real time: a sleep registers a timer, and
 * `run()` fires timers in (time, registration) order, each only once every piece of work that does not wait on
 * the clock has settled. Same inputs, same order of events, on every machine.
 */
import type { Clock } from "@effectively-once/local-cloud/emulators";

interface Timer {
  readonly at: number;
  readonly seq: number;
  fire(): void;
  cancelled: boolean;
}

/** Yields to the event loop once (microtasks, then immediates: how dynalite's in-memory store completes). */
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class VirtualClock implements Clock {
  private nowMs: number;
  private seq = 0;
  private timers: Timer[] = [];
  /** Operations under way that never wait on this clock (in-process DynamoDB calls). */
  private busy = 0;
  firedTimers = 0;

  constructor(startMs: number) {
    this.nowMs = startMs;
  }

  now(): number {
    return this.nowMs;
  }

  /** Moves the clock forward at once (a clock jump); timers due by then fire in order on the next `run()` steps. */
  jump(ms: number): void {
    this.nowMs += Math.max(0, ms);
  }

  /** Counts `work` as running until it settles, so `run()` does not move time while it is under way. */
  track<T>(work: Promise<T>): Promise<T> {
    this.busy++;
    return work.finally(() => {
      this.busy--;
    });
  }

  private schedule(ms: number, fire: () => void): Timer {
    const timer: Timer = { at: this.nowMs + Math.max(0, ms), seq: this.seq++, fire, cancelled: false };
    // Sorted insert: timers are few (one per sleeping task), so a linear scan from the end is cheap.
    let i = this.timers.length;
    while (i > 0 && (this.timers[i - 1].at > timer.at || (this.timers[i - 1].at === timer.at && this.timers[i - 1].seq > timer.seq))) i--;
    this.timers.splice(i, 0, timer);
    return timer;
  }

  /** The local cloud's `Clock` contract: rejects with the signal's reason on abort. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        timer.cancelled = true;
        reject(signal?.reason);
      };
      const timer = this.schedule(ms, () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      });
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Lets everything that does not wait on the clock finish. */
  async settle(): Promise<void> {
    for (let rounds = 0; ; rounds++) {
      await tick();
      if (this.busy === 0) {
        // Two quiet rounds: promise chains resumed by the last immediate get to register their timers.
        await tick();
        if (this.busy === 0) return;
      }
      if (rounds > 100_000) throw new Error("virtual clock: work never settled (something waits on real time)");
    }
  }

  /** Fires timers in order until none is left, `until()` holds, or virtual time passes `deadlineMs`. */
  async run(until: () => boolean, deadlineMs = Number.POSITIVE_INFINITY): Promise<void> {
    for (;;) {
      await this.settle();
      if (until()) return;
      const next = this.timers.shift();
      if (!next) return;
      if (next.cancelled) continue;
      if (next.at > deadlineMs) {
        this.timers.unshift(next);
        return;
      }
      if (next.at > this.nowMs) this.nowMs = next.at;
      this.firedTimers++;
      next.fire();
    }
  }

  pendingTimers(): number {
    return this.timers.filter((t) => !t.cancelled).length;
  }
}
