// What the redrive policy does to a message it moves to the dead-letter queue, by the shared rule
// (../rules/redrive.cjs), at fauxqs's move: fauxqs counted the attempt that moved it as a receive (one more than AWS on
// the first receive from the DLQ), so that count is taken back. Its handles of the source queue name no message any more.
import redriveRules from "../rules/redrive.cjs";
import { SqsQueue } from "./fauxqs-internals.mjs";
import { forgetHandles } from "./receipt-handles.mjs";

const { deadLetterStamp } = redriveRules;

export function patchRedrive() {
  const dequeue = SqsQueue.prototype.dequeue;
  SqsQueue.prototype.dequeue = function (maxCount, visibilityTimeout, dlqResolver) {
    // Arrow functions: `this` is the source queue throughout.
    const resolve = dlqResolver && ((arn) => {
      const dlq = dlqResolver(arn);
      return dlq && {
        enqueue: (message) => {
          message.approximateReceiveCount -= 1;
          // The DLQ's ApproximateAgeOfOldestMessage counts from `movedAt` (metrics.mjs), retention from `retainedFrom`.
          const { deadLetterQueueSourceArn, movedAt, retainedFrom } = deadLetterStamp(this.arn, dlq.isFifo(), Date.now());
          message.deadLetterQueueSourceArn = deadLetterQueueSourceArn;
          message.movedAt = movedAt;
          if (retainedFrom !== undefined) message.retainedFrom = retainedFrom;
          forgetHandles(this, message);
          return dlq.enqueue(message);
        },
      };
    });
    return dequeue.call(this, maxCount, visibilityTimeout, resolve);
  };
}
