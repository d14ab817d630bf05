import { DlqReason } from "@effectively-once/contract";
import type { DlqMessage } from "../observe";
import { LoadKind } from "./generator";
import type { LoadSent } from "./publisher";

/** Per-message checks of the DLQ reasons, beyond "not lost". */
export interface FateChecks {
  /** Invalid bodies not quarantined as `invalid-message`. Must be empty. */
  readonly invalidMisfiled: readonly string[];
  /** Charges the function refuses that are not quarantined as `rejected` (or moved by the redrive). Must be empty. */
  readonly rejectedMisfiled: readonly string[];
  /** Messages quarantined as `payload-mismatch` (a conflict, or an original that lost the race to its conflict). */
  readonly conflictsDetected: number;
}

/** Checks each message's fate in the DLQ against the kind it was sent as (an invalid body, a refused charge, a conflict). */
export function checkFates(sent: readonly LoadSent[], dlq: readonly DlqMessage[]): FateChecks {
  const reasons = new Map<string, Set<string>>();
  for (const m of dlq) {
    const id = m.originalMessageId ?? m.messageId;
    const set = reasons.get(id) ?? new Set<string>();
    set.add(m.reason);
    reasons.set(id, set);
  }
  const has = (id: string, ...wanted: string[]) => wanted.some((r) => reasons.get(id)?.has(r));
  const invalid = sent.filter((m) => m.kind === LoadKind.InvalidJson || m.kind === LoadKind.MissingField);
  return {
    invalidMisfiled: invalid.filter((m) => !has(m.messageId, DlqReason.InvalidMessage)).map((m) => m.messageId),
    rejectedMisfiled: sent.filter((m) => m.kind === LoadKind.Rejected && !has(m.messageId, DlqReason.Rejected, DlqReason.RetriesExhausted)).map((m) => m.messageId),
    conflictsDetected: dlq.filter((m) => m.reason === DlqReason.PayloadMismatch).length,
  };
}
