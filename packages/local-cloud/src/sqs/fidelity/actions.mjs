// The fidelity layer's place in fauxqs's router: every action first passes the queue's policy (queue-policy.mjs)
// and AWS's request rules (request-checks.mjs), then runs the fidelity layer's handler for it, if it has one (which
// may call fauxqs's own), or fauxqs's. Errors thrown as SqsError are answered by fauxqs's router as usual, with
// AWS's names (aws-errors.mjs).
import { SqsRouter } from "./fauxqs-internals.mjs";
import { normaliseFifoAttributes } from "./fifo.mjs";
import { moveTaskActions } from "./move-tasks.mjs";
import { checkPolicy, checkPolicyAllows, queueOfCall } from "./queue-policy.mjs";
import { receiptHandleActions } from "./receipt-handles.mjs";
import { checkRedriveAllow } from "./redrive-allow.mjs";
import { receiveActions } from "./receive.mjs";
import { recordCall } from "./metrics.mjs";
import { checkRequest, purgeActions } from "./request-checks.mjs";
import { sendActions } from "./send.mjs";

/** Action → `(body, store, request, fauxqsHandler) => answer`. */
const OWN_ACTIONS = new Map([...receiptHandleActions, ...receiveActions, ...sendActions, ...purgeActions, ...moveTaskActions]);

function guard(action, body, store, request) {
  if (action === "CreateQueue" || action === "SetQueueAttributes") normaliseFifoAttributes(body);
  if ((action === "CreateQueue" || action === "SetQueueAttributes") && body.Attributes?.Policy !== undefined) checkPolicy(body.Attributes.Policy);
  checkRedriveAllow(action, body, store);
  checkPolicyAllows(action, queueOfCall(action, body, store), request.sqsSender);
  checkRequest(action, body);
}

export function installActions() {
  const handle = SqsRouter.prototype.handle;
  SqsRouter.prototype.handle = function (request, reply) {
    if (!this.awsFidelity) {
      this.awsFidelity = true;
      for (const action of new Set([...this.handlers.keys(), ...OWN_ACTIONS.keys()])) {
        const fauxqs = this.handlers.get(action);
        const own = OWN_ACTIONS.get(action);
        this.handlers.set(action, async (body, store, req) => {
          guard(action, body ?? {}, store, req);
          const result = await (own ? own(body ?? {}, store, req, fauxqs) : fauxqs(body, store, req));
          // Only a call that was answered makes the queue active here (a refused one may too on AWS: not modelled).
          recordCall(action, body, store, result);
          return result;
        });
      }
    }
    return handle.call(this, request, reply);
  };
}
