/**
 * The `MessageGroupId` and `MessageDeduplicationId` of each send when the simulated stack is FIFO: the scenario's own
 * when it names them, else drawn from its seed (so a scenario drawn for standard queues runs on FIFO ones too, and the
 * model reads the same ids the run sent). Groups come from a small pool, so a group's messages meet in batches, with
 * names a plain object would misread; most sends carry a fresh deduplication id, some repeat the previous send's (a
 * producer's retry, or its mistake: SQS drops the repeat within 5 minutes), and under content-based deduplication
 * half carry none (SQS derives one from the body).
 */
import { createRng } from "@effectively-once/local-cloud/emulators";
import type { Scenario } from "./shape";

const GROUPS = ["g1", "g1", "g1", "g2", "g2", "g3", "__proto__", "hasOwnProperty", "constructor"] as const;

export interface FifoSendIds {
  readonly group: string;
  /** Undefined: none sent (content-based deduplication derives it). */
  readonly dedup?: string;
}

/** The ids of every send of the scenario, in send order. */
export function fifoSendIds(scenario: Scenario, contentBasedDeduplication: boolean): FifoSendIds[] {
  const rng = createRng(`${scenario.seed}/fifo-sends`);
  const out: FifoSendIds[] = [];
  for (const op of scenario.ops) {
    if (op.op !== "send") continue;
    const index = out.length;
    const group = op.group ?? GROUPS[Math.floor(rng.next() * GROUPS.length)];
    const roll = rng.next();
    const drawn = contentBasedDeduplication && roll < 0.5 ? undefined : roll > 0.9 && index > 0 ? (out[index - 1].dedup ?? `d${index - 1}`) : `d${index}`;
    const dedup = op.dedup === null ? undefined : (op.dedup ?? drawn);
    out.push({ group, ...(dedup === undefined ? {} : { dedup }) });
  }
  return out;
}
