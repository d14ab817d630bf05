/**
 * The domain's part of a sample or load stream: how to write a valid message, a conflicting one and (if the domain
 * has one) a message its downstream refuses. Everything else a stream needs (keys, duplicates, bad JSON, missing
 * fields, effect keys) the tools derive from the synthesized stack's contract, so a profile stays this small.
 * `examples/<name>/profile.ts` exports one as `profile`; it must not import cdktf or the AWS SDK (light tools load it).
 */
export interface MessageProfile {
  /** A valid body whose business key belongs to (`runId`, `index`) alone; `random()` is seeded, in [0, 1). */
  unique(index: number, runId: string, random: () => number): Record<string, unknown>;
  /** The same business key as `body` with another payload: the pipeline must quarantine it as `payload-mismatch`. */
  conflict(body: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** A valid body the downstream refuses for good (quarantined `rejected`); absent when the domain has none. */
  rejected?(index: number, runId: string): Record<string, unknown>;
  /**
   * FIFO stacks: the `MessageGroupId` of a body, the entity whose messages must keep their order (e.g. the account).
   * Absent: one group per business key.
   */
  groupOf?(body: Readonly<Record<string, unknown>>): string;
}
