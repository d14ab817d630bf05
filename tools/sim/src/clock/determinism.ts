/**
 * While a simulated run is under way, the process-wide sources of time and chance follow the run: `Date.now()`
 * and `new Date()` read the virtual clock (Powertools, the function's charge records, JSONata without a clock),
 * `Math.random()` (retry jitter) and `crypto.randomUUID()` (claim ids, charge ids) come from the run's seed.
 * Runs are sequential in one process; `restore()` puts the real ones back.
 */
import crypto from "node:crypto";
import { createRng } from "@effectively-once/local-cloud/emulators";

const RealDate = Date;
const realRandom = Math.random;
const realUuid = crypto.randomUUID;

export function installDeterminism(now: () => number, seed: string): () => void {
  const rng = createRng(`${seed}/process`);
  class VirtualDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [number]));
    }
    static now(): number {
      return now();
    }
  }
  globalThis.Date = VirtualDate as DateConstructor;
  Math.random = () => rng.next();
  const hex = (): string => Math.floor(rng.next() * 0x1_0000_0000).toString(16).padStart(8, "0");
  crypto.randomUUID = (() => {
    const h = hex() + hex() + hex() + hex();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }) as typeof crypto.randomUUID;
  return () => {
    globalThis.Date = RealDate;
    Math.random = realRandom;
    crypto.randomUUID = realUuid;
  };
}
