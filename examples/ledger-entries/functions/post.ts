import { randomUUID } from "node:crypto";
import { EffectJournal, effectKey, type PipelineEvent, type PipelineHandlerOptions, type SideEffectContext } from "@effectively-once/pipeline/handler";
import { REFUSED_AMOUNT } from "../identity";

/** The parsed SQS body; the pipeline's field rules guarantee these fields. */
export interface EntryPayload {
  readonly accountId: string;
  readonly entryId: string;
  /** Minor units, signed. */
  readonly amount: number;
  readonly currency: string;
  readonly [field: string]: unknown;
}

export interface PostingResult {
  readonly postingId: string;
  /** `applied` by this run, or `replayed` when the books had it already. */
  readonly outcome: string;
  readonly amount: number;
  readonly currency: string;
}

/**
 * The side effect: post the entry to the stand-in books once per `[accountId, entryId]#post`. The same amount and
 * currency again get the stored posting back; another amount or currency is a conflict (`payload-mismatch`); amount 0
 * is refused for good (`rejected`). The pipeline hands an account's entries over one after another, in send order.
 */
async function post(event: PipelineEvent<EntryPayload>, context: SideEffectContext<EffectJournal>): Promise<PostingResult> {
  const { amount, currency } = event.payload;
  const key = effectKey(event.businessKey, event.operation);
  if (amount === REFUSED_AMOUNT) await context.resources.refuse({ effectKey: key, messageId: event.messageId }, "the books refuse an entry of amount 0: nothing to post");
  const receipt = await context.resources.apply({
    effectKey: key,
    messageId: event.messageId,
    fingerprint: event.payloadHash,
    attributes: { postingId: `post_${randomUUID()}`, amount, currency },
  });
  context.note({ outcome: receipt.outcome, postingId: receipt.attributes.postingId });
  return { postingId: receipt.attributes.postingId, outcome: receipt.outcome, amount: receipt.attributes.amount, currency: receipt.attributes.currency };
}

/** What `handler.ts` deploys: the posting on an effect journal. */
export const postFunction: PipelineHandlerOptions<EntryPayload, PostingResult, EffectJournal> = {
  setup: EffectJournal.fromEnvironment,
  sideEffect: post,
};
