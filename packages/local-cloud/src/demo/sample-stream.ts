import { createRng } from "../faults";
import type { MessageProfile } from "@effectively-once/pipeline";
import { DlqReason } from "@effectively-once/contract";
import { labelMessages, type BodyLabel, type StreamContract } from "../stack/contract";

/** Why a sample message is in the stream, and so what must become of it. */
export const SampleKind = {
  Unique: "unique",
  ExactDuplicate: "exact-duplicate",
  ConcurrentDuplicate: "concurrent-duplicate",
  Conflict: "payload-conflict",
  InvalidJson: "invalid-json",
  MissingField: "missing-field",
  Rejected: "rejected-by-function",
} as const;
export type SampleKind = (typeof SampleKind)[keyof typeof SampleKind];

export interface SampleMessage extends BodyLabel {
  readonly kind: SampleKind;
  readonly body: string;
  /** FIFO: the message group the profile gives it (`MessageProfile.groupOf`); absent: one per business key. */
  readonly groupId?: string;
}

/** Two waves: the second is sent once the first is processed, so its duplicates are redeliveries after completion. */
export interface SampleStream {
  readonly waves: readonly (readonly SampleMessage[])[];
  /** The DLQ reasons this stream must produce. */
  readonly expectedQuarantine: Readonly<Record<string, number>>;
}

/**
 * A reproducible stream for any stack: unique messages from the app's profile, exact duplicates, concurrent
 * duplicates (three copies in one send batch), a payload conflict, bad JSON, a body missing a key field and, when
 * the profile has one, a message the function rejects.
 */
export async function sampleStream(
  profile: MessageProfile,
  contract: StreamContract,
  options: { orders?: number; seed?: number | string; runId?: string } = {},
): Promise<SampleStream> {
  const orders = Math.max(1, options.orders ?? 40);
  const rng = createRng(options.seed ?? 1);
  const random = () => rng.next();
  const run = options.runId ?? "demo";
  const all = Array.from({ length: orders }, (_, i) => profile.unique(i, run, random));
  const concurrent = new Set(all.slice(0, Math.min(3, orders)));
  const wave1: SampleMessage[] = [];
  for (const body of all) {
    const copies = concurrent.has(body) ? 3 : 1;
    for (let c = 0; c < copies; c++) wave1.push({ kind: c === 0 ? SampleKind.Unique : SampleKind.ConcurrentDuplicate, body: JSON.stringify(body) });
  }
  const spare = profile.unique(orders, run, random);
  wave1.push({ kind: SampleKind.InvalidJson, body: JSON.stringify(spare).slice(0, -1) });
  const missing: Record<string, unknown> = { ...profile.unique(orders + 1, run, random) };
  delete missing[contract.keyFields[contract.keyFields.length - 1]];
  wave1.push({ kind: SampleKind.MissingField, body: JSON.stringify(missing) });
  const rejected = profile.rejected?.(orders + 2, run);
  if (rejected) wave1.push({ kind: SampleKind.Rejected, body: JSON.stringify(rejected) });

  const wave2: SampleMessage[] = all.filter((_, i) => i % 4 === 3).map((body) => ({ kind: SampleKind.ExactDuplicate, body: JSON.stringify(body) }));
  wave2.push({ kind: SampleKind.Conflict, body: JSON.stringify(profile.conflict(all[Math.min(orders - 1, 4)])) });

  // FIFO stacks: each body in the group its profile names (bodies that are no JSON object keep the default).
  const grouped = (wave: SampleMessage[]): SampleMessage[] => wave.map((m) => ({ ...m, ...groupOf(profile, m.body) }));
  return {
    waves: [await labelMessages(grouped(wave1), contract), await labelMessages(grouped(wave2), contract)],
    expectedQuarantine: { [DlqReason.InvalidMessage]: 2, [DlqReason.PayloadMismatch]: 1, ...(rejected ? { [DlqReason.Rejected]: 1 } : {}) },
  };
}

function groupOf(profile: MessageProfile, body: string): { groupId?: string } {
  if (!profile.groupOf) return {};
  try {
    const parsed = JSON.parse(body) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? { groupId: profile.groupOf(parsed as Record<string, unknown>) } : {};
  } catch {
    return {};
  }
}
