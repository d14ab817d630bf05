// What the redrive policy does to a message it moves to the dead-letter queue, as AWS does it: the message keeps
// its id, attributes, sender and (standard DLQ) enqueue time, gains the DeadLetterQueueSourceArn system attribute
// (recorded on AWS), and its receive count is the count of the receives that delivered it (fauxqs counted the
// attempt that moved it too: one more than AWS on the first receive from the DLQ). Its handles of the source
// queue name no message any more.
import { SqsQueue } from "./fauxqs-internals.mjs";
import { forgetHandles } from "./receipt-handles.mjs";

export function patchRedrive() {
  const dequeue = SqsQueue.prototype.dequeue;
  SqsQueue.prototype.dequeue = function (maxCount, visibilityTimeout, dlqResolver) {
    // Arrow functions: `this` is the source queue throughout.
    const resolve = dlqResolver && ((arn) => {
      const dlq = dlqResolver(arn);
      return dlq && {
        enqueue: (message) => {
          message.approximateReceiveCount -= 1;
          message.deadLetterQueueSourceArn = this.arn;
          // A FIFO dead-letter queue resets the enqueue time retention counts from; a standard one keeps it.
          if (dlq.isFifo()) message.retainedFrom = Date.now();
          // The DLQ's ApproximateAgeOfOldestMessage counts from the move (metrics.mjs).
          message.movedAt = Date.now();
          forgetHandles(this, message);
          return dlq.enqueue(message);
        },
      };
    });
    return dequeue.call(this, maxCount, visibilityTimeout, resolve);
  };
}
