import type { HeldMessage } from "./dlq-scan";
import { hasOutput, operationOf } from "./outputs";
import { getLedgerClaim } from "./ledger-get";
import { honouredIds } from "./function-ids";
import { getPowertoolsRecords, POWERTOOLS_COMPLETED } from "./powertools-record";
import type { KeyMemory } from "./redrive-safety";
import type { OpsContext } from "./types";
import { ClaimStatus, OutputName } from "@effectively-once/contract";

/**
 * What both layers remember of the selected keys (consistent reads; one of each per distinct key): the later-expiring
 * COMPLETED record of the ledger and of the function's Powertools table, under the ids the deployed function honours.
 * The ledger alone is no witness: it can lose an applied key early (a Complete that failed after the invocation, a
 * released takeover, an operator's release), while Powertools keeps every completed invocation for the retention from
 * its completion.
 */
export async function keyMemories(ctx: OpsContext, selected: readonly HeldMessage[], onNotice?: (line: string) => void): Promise<Map<string, KeyMemory>> {
  const keys = [...new Set(selected.flatMap((m) => (m.entry.businessKey === undefined ? [] : [m.entry.businessKey])))];
  const memories = new Map<string, KeyMemory>();
  const missing = [OutputName.LedgerTable, OutputName.Operation].filter((name) => !hasOutput(ctx, name));
  if (keys.length > 0 && missing.length > 0) {
    // A stack from before these outputs: the age rules alone still hold, only no ledger can vouch for a key.
    onNotice?.(`the stack has no ${missing.join(" / ")} output, so the ledger is not read: only messages at most the source queue's retention old (or rejected ones within retention − that) can move`);
    return memories;
  }
  // Only the records the DEPLOYED function honours are a witness (its configuration, not the outputs: function-ids.ts).
  const honoured = keys.length > 0 && hasOutput(ctx, OutputName.IdempotencyTable) ? await honouredIds(ctx) : undefined;
  const powertools = honoured !== undefined && honoured.forms.length > 0;
  if (keys.length > 0 && !hasOutput(ctx, OutputName.IdempotencyTable)) {
    onNotice?.(`the stack has no ${OutputName.IdempotencyTable} output, so only the ledger is read: a key it lost early (a failed Complete, a released takeover) cannot be seen`);
  }
  if (honoured?.notice !== undefined) onNotice?.(honoured.notice);
  const operation = operationOf(ctx, undefined);
  for (const key of keys) {
    // Every id form the deployed function answers from: its own, and the earlier releases' while its legacy prefix is set.
    const [claim, records] = await Promise.all([getLedgerClaim(ctx, { key }), powertools ? getPowertoolsRecords(ctx, key, operation, honoured.forms) : []]);
    const completed = [
      claim?.status === ClaimStatus.Completed && claim.expiresAt !== undefined ? claim.expiresAt * 1000 : undefined,
      ...records.map((record) => (record.status === POWERTOOLS_COMPLETED && record.expiration !== undefined ? record.expiration * 1000 : undefined)),
    ].filter((ms): ms is number => ms !== undefined);
    if (completed.length > 0) memories.set(key, { status: ClaimStatus.Completed, expiresAtMs: Math.max(...completed) });
    else if (claim) memories.set(key, { status: claim.status, ...(claim.expiresAt !== undefined ? { expiresAtMs: claim.expiresAt * 1000 } : {}) });
  }
  return memories;
}
