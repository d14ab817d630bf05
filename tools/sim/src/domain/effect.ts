/**
 * The side effect of a drawn domain: any side effect, as the project's own stand-in downstream gives it. It applies
 * the payload once per business key and operation on an `EffectJournal` (a replay gets the stored effect back,
 * another payload is a conflict), records the payload it applied (world/world.ts counts the journal's EFFECT items as
 * charges, the model compares the record), and refuses for good the domain's refused value, if any.
 */
import { EffectJournal, effectKey, type PipelineEvent, type PipelineHandlerOptions, type SideEffectContext } from "@effectively-once/functions";
import { payloadRecord, type SimDomain } from "./space";

type Body = Readonly<Record<string, unknown>>;

export function domainHandlerOptions(domain: SimDomain): PipelineHandlerOptions<Body, { readonly outcome: string; readonly payload: string }, EffectJournal> {
  const fields = domain.payload.map((f) => f.name);
  const refuses = domain.refuses;
  return {
    setup: EffectJournal.fromEnvironment,
    async sideEffect(event: PipelineEvent<Body>, context: SideEffectContext<EffectJournal>) {
      const key = effectKey(event.businessKey, event.operation);
      const payload = payloadRecord(fields, event.payload);
      if (refuses !== undefined && Object.prototype.hasOwnProperty.call(event.payload, refuses.field) && event.payload[refuses.field] === refuses.value) {
        await context.resources.refuse({ effectKey: key, messageId: event.messageId }, `downstream refuses ${JSON.stringify(refuses.value)} in ${refuses.field}`);
      }
      const receipt = await context.resources.apply({ effectKey: key, messageId: event.messageId, fingerprint: event.payloadHash, attributes: { payload } });
      return { outcome: receipt.outcome, payload: receipt.attributes.payload };
    },
  };
}
