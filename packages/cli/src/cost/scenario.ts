import { InvalidInputError } from "./errors";
import { Path } from "./paths";

/** What varies between runs of the model: the traffic mix and the batch size. */
export interface Scenario {
  /** Messages published (the result is per this many; 1,000,000 = "per million"). */
  readonly messages: number;
  /** Share of messages that repeat a key already applied, with the same payload (0..1). */
  readonly duplicateRatio: number;
  /** Share of messages quarantined (priced as payload-mismatch: claim + inspect + DLQ send) (0..1). */
  readonly quarantineRatio: number;
  /** Extra deliveries per message that end in `retry` (the key is held by an in-flight message) (≥ 0). */
  readonly retryRatio: number;
  /** Records per pipe batch = per Express execution (1..10). */
  readonly batchSize: number;
}

export const DEFAULT_SCENARIO: Omit<Scenario, "batchSize"> = {
  messages: 1_000_000,
  duplicateRatio: 0,
  quarantineRatio: 0.001,
  retryRatio: 0.01,
};

export const MAX_BATCH_SIZE = 10;

export function validateScenario(s: Scenario): Scenario {
  const ratio = (name: string, value: number) => {
    if (!Number.isFinite(value) || value < 0 || value > 1) throw new InvalidInputError(`${name} = ${value}: use a share between 0 and 1 (e.g. 0.2 for 20%)`);
  };
  if (!Number.isFinite(s.messages) || s.messages <= 0) throw new InvalidInputError(`messages = ${s.messages}: use a positive number of messages`);
  ratio("duplicateRatio", s.duplicateRatio);
  ratio("quarantineRatio", s.quarantineRatio);
  if (s.duplicateRatio + s.quarantineRatio > 1) {
    throw new InvalidInputError(`duplicateRatio + quarantineRatio = ${s.duplicateRatio + s.quarantineRatio}: the two shares cannot exceed 1 together`);
  }
  if (!Number.isFinite(s.retryRatio) || s.retryRatio < 0 || s.retryRatio > 10) {
    throw new InvalidInputError(`retryRatio = ${s.retryRatio}: use extra deliveries per message between 0 and 10`);
  }
  if (!Number.isInteger(s.batchSize) || s.batchSize < 1 || s.batchSize > MAX_BATCH_SIZE) {
    throw new InvalidInputError(`batchSize = ${s.batchSize}: use a whole number from 1 to ${MAX_BATCH_SIZE} (the stack's limit)`);
  }
  return s;
}

/** Deliveries (records handed to a workflow) per path. A retried message is delivered once more per retry. */
export function deliveriesByPath(s: Scenario): Record<Path, number> {
  return {
    [Path.NewKey]: s.messages * (1 - s.duplicateRatio - s.quarantineRatio),
    [Path.Duplicate]: s.messages * s.duplicateRatio,
    [Path.Quarantine]: s.messages * s.quarantineRatio,
    [Path.Retry]: s.messages * s.retryRatio,
    [Path.Invalid]: 0,
  };
}

export function totalDeliveries(byPath: Record<Path, number>): number {
  return Object.values(byPath).reduce((a, b) => a + b, 0);
}
