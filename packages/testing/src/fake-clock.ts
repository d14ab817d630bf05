/**
 * A virtual clock for tests: sleeps are timers on virtual time. In auto mode, the earliest timer fires on
 * the next macrotask (time jumps to it), so retries and waits take no real time; `sleeps` records each
 * requested duration in order.
 */
import type { Clock } from "@effectively-once/local-cloud/emulators";

interface Timer {
  at: number;
  seq: number;
  resolve(): void;
}

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  private t: number;
  private timers: Timer[] = [];
  private seq = 0;
  private pumping = false;

  constructor(start = Date.parse("2024-01-01T00:00:00Z"), private readonly auto = true) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
    return new Promise((resolve, reject) => {
      const timer: Timer = {
        at: this.t + Math.max(0, ms),
        seq: this.seq++,
        resolve: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.timers.push(timer);
      if (this.auto) this.schedule();
    });
  }

  /** Manual mode: moves time forward, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const target = this.t + ms;
    for (;;) {
      await new Promise((r) => setImmediate(r));
      const next = this.earliest();
      if (!next || next.at > target) break;
      this.fire(next);
    }
    this.t = target;
  }

  /** Number of pending timers. */
  get pending(): number {
    return this.timers.length;
  }

  private earliest(): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq)) best = x;
    return best;
  }

  private fire(timer: Timer): void {
    this.timers = this.timers.filter((x) => x !== timer);
    this.t = Math.max(this.t, timer.at);
    timer.resolve();
  }

  private schedule(): void {
    if (this.pumping) return;
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      const next = this.earliest();
      if (next) {
        this.fire(next);
        if (this.timers.length) this.schedule();
      }
    });
  }
}
