// A function written against the package's ./handler entry only (test/public-api/entry-points.test.ts deploys it).
import { ConflictError, createPipelineHandler, EffectJournal, effectKey, PermanentError } from "@effectively-once/functions";

interface Ticket {
  readonly queue: string;
  readonly number: number;
  readonly priority: number;
  readonly [field: string]: unknown;
}

export const handler = createPipelineHandler<Ticket, { opened: string }, EffectJournal>({
  setup: EffectJournal.fromEnvironment,
  sideEffect: async (event, { resources: desk }) => {
    if (event.payload.priority === 9) throw new PermanentError("priority 9 tickets go to the phone line");
    if (event.payload.queue === "legacy") throw new ConflictError("the legacy desk already holds this ticket");
    const receipt = await desk.apply({ effectKey: effectKey(event.businessKey, event.operation), messageId: event.messageId, fingerprint: event.payloadHash, attributes: { opened: event.messageId } });
    return { opened: receipt.attributes.opened };
  },
});
