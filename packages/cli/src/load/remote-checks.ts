import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { ClaimStatus } from "@effectively-once/contract";
import { readKeyEffects, verify, type DlqMessage, type KeyEffects, type Verification } from "@effectively-once/local-cloud/harness";
import { keyDeriver, keyExpressionOf } from "@effectively-once/ops";
import { withDlqScan } from "@effectively-once/ops";
import { getLedgerClaim } from "@effectively-once/ops";
import { getPowertoolsRecord, POWERTOOLS_COMPLETED } from "@effectively-once/ops";
import type { OpsContext } from "@effectively-once/ops";
import { checkFates, type FateChecks } from "@effectively-once/local-cloud/harness";
import type { LoadSent } from "@effectively-once/local-cloud/harness";
import type { RemoteStack } from "./remote-target";

/** What the deployed stack's own stores say about this run's keys (never the whole tables: they hold other runs). */
export interface RemoteChecks {
  readonly verification: Verification;
  readonly fates: FateChecks;
  readonly ledger: {
    readonly items: number;
    readonly inProgress: number;
    /** Claims whose `expiresAt` is missing, not epoch seconds, in the past or beyond the retention. Must be empty. */
    readonly badTtl: readonly string[];
    /** Keys with an applied effect but no COMPLETED claim. Must be empty. */
    readonly appliedNotCompleted: readonly string[];
  };
  /** Keys with an applied effect but no COMPLETED Powertools record. Must be empty. */
  readonly powertoolsMissing: readonly string[];
  readonly powertoolsRecords: number;
  readonly dlq: { readonly scanned: number; readonly ours: number; readonly truncated: boolean };
  /** False when the stack has no effects table: "applied once" and "lost" were not checkable. */
  readonly effectsChecked: boolean;
  /** Epoch ms of the latest effect applied for this run's keys (0: none), the end of the throughput window. */
  readonly lastEffectAt: number;
}

/** Runs `work` over `items` with at most `limit` in flight (a deployed table throttles a burst of reads). */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** Reads the DLQ without consuming it (the ops CLI's scan) and keeps this run's messages: those that name one of ours. */
async function ourDlqMessages(ctx: OpsContext, sent: readonly LoadSent[]): Promise<{ messages: DlqMessage[]; scanned: number; truncated: boolean }> {
  const ids = new Set(sent.map((m) => m.messageId));
  const deriveKey = keyDeriver(keyExpressionOf(ctx.outputs));
  return withDlqScan(ctx, { max: sent.length * 2 + 10_000, deriveKey }, async (scan) => {
    const messages = scan.held
      .map((h) => h.entry)
      .filter((e) => ids.has(e.originalMessageId) || ids.has(e.messageId))
      .map((e) => ({ messageId: e.messageId, body: e.body, reason: e.reason, originalMessageId: e.originalMessageId, businessKey: e.businessKey, detail: e.detail, sentAt: e.sentAt ?? 0 }));
    return { messages, scanned: scan.held.length, truncated: scan.truncated };
  });
}

/** Checks every key of the run by key: a Query on the effects table, a GetItem on the ledger and one on the Powertools table. */
export async function checkRemote(ctx: OpsContext, dynamodb: DynamoDBClient, stack: RemoteStack, sent: readonly LoadSent[], options: { readonly concurrency?: number } = {}): Promise<RemoteChecks> {
  const effectKeys = [...new Set(sent.flatMap((m) => (m.effectKey ? [m.effectKey] : [])))];
  const suffix = `#${stack.operation}`;
  const businessKeyOf = (effectKey: string) => (effectKey.endsWith(suffix) ? effectKey.slice(0, -suffix.length) : effectKey);
  const effects = new Map<string, KeyEffects>();
  const nowSeconds = Math.floor(ctx.now() / 1000);
  const latest = nowSeconds + stack.retentionSeconds + 60;
  const badTtl: string[] = [];
  const appliedNotCompleted: string[] = [];
  const powertoolsMissing: string[] = [];
  let items = 0;
  let inProgress = 0;
  let powertoolsRecords = 0;
  let lastEffectAt = 0;
  const dlq = await ourDlqMessages(ctx, sent);
  await eachLimited(effectKeys, options.concurrency ?? 8, async (effectKey) => {
    const key = businessKeyOf(effectKey);
    const [found, claim, record] = await Promise.all([
      stack.effectsTable ? readKeyEffects(dynamodb, stack.effectsTable, effectKey) : Promise.resolve(undefined),
      getLedgerClaim(ctx, { key, operation: stack.operation }),
      getPowertoolsRecord(ctx, key, stack.operation),
    ]);
    if (found) effects.set(effectKey, found);
    for (const e of found?.effects ?? []) lastEffectAt = Math.max(lastEffectAt, Date.parse(e.appliedAt) || 0);
    const applied = (found?.effects.length ?? 0) > 0;
    if (claim) {
      items += 1;
      if (claim.status === ClaimStatus.InProgress) inProgress += 1;
      const expiresAt = claim.expiresAt;
      if (expiresAt === undefined || !Number.isInteger(expiresAt) || expiresAt < nowSeconds || expiresAt > latest) badTtl.push(key);
    }
    if (record) powertoolsRecords += 1;
    if (applied && claim?.status !== ClaimStatus.Completed) appliedNotCompleted.push(key);
    if (applied && record?.status !== POWERTOOLS_COMPLETED) powertoolsMissing.push(key);
  });
  return {
    verification: verify(sent, effects, dlq.messages),
    fates: checkFates(sent, dlq.messages),
    ledger: { items, inProgress, badTtl, appliedNotCompleted },
    powertoolsMissing,
    powertoolsRecords,
    dlq: { scanned: dlq.scanned, ours: dlq.messages.length, truncated: dlq.truncated },
    effectsChecked: stack.effectsTable !== undefined,
    lastEffectAt,
  };
}
