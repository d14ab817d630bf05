// The parts of fauxqs 1.9.2 the fidelity layer builds on. fauxqs exports none of them, so they are loaded by file
// URL next to its entry point: the same module instances fauxqs itself uses (a patch of a prototype here is a patch
// of fauxqs). Pinned to 1.9.2 (package.json); a change of these paths fails the worker's start-up loudly.
const entry = import.meta.resolve("fauxqs");
const load = (file) => import(new URL(file, entry).href);

const [store, router, errors, types, receive, send, sendBatch, changeVisibility, purge] = await Promise.all([
  load("./sqs/sqsStore.js"),
  load("./sqs/sqsRouter.js"),
  load("./common/errors.js"),
  load("./sqs/sqsTypes.js"),
  load("./sqs/actions/receiveMessage.js"),
  load("./sqs/actions/sendMessage.js"),
  load("./sqs/actions/sendMessageBatch.js"),
  load("./sqs/actions/changeMessageVisibility.js"),
  load("./sqs/actions/purgeQueue.js"),
]);

export const { SqsQueue, SqsStore } = store;
export const { SqsRouter } = router;
export const { SqsError, QueueDoesNotExistError } = errors;
export const { INVALID_MESSAGE_BODY_CHAR, VALID_BATCH_ENTRY_ID, calculateMessageSize, SETTABLE_ATTRIBUTES } = types;
/** fauxqs's own action handlers, `(body, store, request) => result`, wrapped by the fidelity layer. */
export const fauxqsActions = {
  ReceiveMessage: receive.receiveMessage,
  SendMessage: send.sendMessage,
  SendMessageBatch: sendBatch.sendMessageBatch,
  ChangeMessageVisibility: changeVisibility.changeMessageVisibility,
  PurgeQueue: purge.purgeQueue,
};
