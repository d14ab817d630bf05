import { nap } from "@effectively-once/local-cloud/emulators";
import { VirtualClock } from "../../src/clock/virtual-clock";

describe("Class: VirtualClock", () => {
  it("fires timers in time order, ties in registration order, without real waiting", async () => {
    const clock = new VirtualClock(1_000);
    const seen: string[] = [];
    void clock.sleep(3_600_000).then(() => seen.push(`hour@${clock.now()}`));
    void nap(clock, 10).then(() => seen.push(`a@${clock.now()}`));
    void clock.sleep(10).then(() => seen.push(`b@${clock.now()}`));
    // Count the host's timers instead of timing the run: a sleep that waited for real would arm one.
    const realTimers = [jest.spyOn(globalThis, "setTimeout"), jest.spyOn(globalThis, "setInterval")];
    try {
      await clock.run(() => false);
      expect(seen).toEqual(["a@1010", "b@1010", "hour@3601000"]);
      expect(clock.firedTimers).toBe(3);
      for (const timer of realTimers) expect(timer).not.toHaveBeenCalled();
    } finally {
      for (const timer of realTimers) timer.mockRestore();
    }
  });

  it("rejects an aborted sleep (a pipes nap resolves), and never fires it", async () => {
    const clock = new VirtualClock(0);
    const abort = new AbortController();
    const sfn = clock.sleep(50, abort.signal).then(() => "fired", (e: unknown) => `rejected:${String(e)}`);
    const pipes = nap(clock, 50, abort.signal).then(() => `resolved@${clock.now()}`);
    abort.abort("stop");
    await clock.run(() => false);
    await expect(sfn).resolves.toBe("rejected:stop");
    await expect(pipes).resolves.toBe("resolved@0");
    expect(clock.firedTimers).toBe(0);
  });

  it("does not move time while tracked work is under way", async () => {
    const clock = new VirtualClock(0);
    let doneAt = -1;
    void clock.track(new Promise((resolve) => setImmediate(() => setImmediate(resolve)))).then(() => (doneAt = clock.now()));
    void clock.sleep(5);
    await clock.run(() => false);
    expect(doneAt).toBe(0);
    expect(clock.now()).toBe(5);
  });

  it("a jump moves time at once; run stops at a deadline", async () => {
    const clock = new VirtualClock(0);
    const fired: number[] = [];
    void clock.sleep(100).then(() => fired.push(clock.now()));
    void clock.sleep(10_000).then(() => fired.push(clock.now()));
    clock.jump(500);
    await clock.run(() => false, 5_000);
    expect(fired).toEqual([500]);
    expect(clock.pendingTimers()).toBe(1);
  });
});
