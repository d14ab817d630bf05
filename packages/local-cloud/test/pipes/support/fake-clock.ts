import type { Clock } from "../../../src/clock/clock";

interface Timer {
  at: number;
  resolve: () => void;
}

/** A clock that only moves when the test says so; `sleep` resolves when `advance` passes its time, rejects on abort. */
export class FakeClock implements Clock {
  private current: number;
  private timers = new Set<Timer>();

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        this.timers.delete(timer);
        reject(signal?.reason);
      };
      const timer: Timer = {
        at: this.current + Math.max(0, ms),
        resolve: () => {
          this.timers.delete(timer);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.timers.add(timer);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Number of sleeps waiting (lets a test wait until the code under test is parked on the clock). */
  pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting their continuations run. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const due = [...this.timers].filter((t) => t.at <= target).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.current = Math.max(this.current, due.at);
      due.resolve();
      await settle();
    }
    this.current = target;
    await settle();
  }
}

/** Lets pending promise callbacks and I/O callbacks run (no timer involved). */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
