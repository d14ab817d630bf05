// TransactWriteItems and TransactGetItems on dynalite 4 (which has neither), with DynamoDB's semantics: all or
// nothing, every condition checked before anything is written, no two operations on one item, the cancellation
// reasons in item order (`None` for the items that passed), an optional ClientRequestToken that makes a repeat of
// the same request within 10 minutes succeed without writing again. Each write is dynalite's own PutItem /
// UpdateItem / DeleteItem, run while this transaction holds the locks of all its items, so no other write slips in
// between the checks and the writes. Plain CommonJS, loaded by both placements (see dynalite-fidelity.cjs).
"use strict";

const crypto = require("node:crypto");

const MAX_ITEMS = 100;
const TOKEN_WINDOW_MS = 10 * 60 * 1000;
const KINDS = [
  ["ConditionCheck", "deleteItem"],
  ["Put", "putItem"],
  ["Update", "updateItem"],
  ["Delete", "deleteItem"],
];

function awsError(type, message, extra = {}) {
  const error = new Error(message);
  error.statusCode = 400;
  error.body = { __type: `com.amazonaws.dynamodb.v20120810#${type}`, message, ...extra };
  return error;
}

const validation = (message) => Object.assign(new Error(message), { statusCode: 400, body: { __type: "com.amazon.coral.validate#ValidationException", message } });

/** A table's name from a name or a table ARN (both are accepted, as recorded on AWS). */
const tableName = (nameOrArn) => String(nameOrArn ?? "").replace(/^arn:[^:]+:dynamodb:[^:]*:[^:]*:table\//, "");

/** JSON with sorted keys: the same request with attributes in another order is the same request. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

const promisify = (fn) => new Promise((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value))));

function createTransactions(requireFn) {
  const db = requireFn("dynalite/db");
  const validations = requireFn("dynalite/validations");
  const actions = Object.fromEntries(["putItem", "updateItem", "deleteItem", "getItem"].map((name) => [name, requireFn(`dynalite/actions/${name}`)]));
  const rules = Object.fromEntries(["putItem", "updateItem", "deleteItem", "getItem"].map((name) => [name, requireFn(`dynalite/validations/${name}`)]));
  const tokens = new Map();

  /** One operation of the request, validated and parsed by dynalite's own rules for the single-item action. */
  function parse(store, entry, index) {
    const kinds = KINDS.filter(([kind]) => entry && entry[kind]);
    if (kinds.length !== 1) throw validation(`TransactItems[${index + 1}] must name exactly one of ConditionCheck, Put, Update, Delete`);
    const [kind, action] = kinds[0];
    const data = { ...entry[kind], TableName: tableName(entry[kind].TableName) };
    if (kind === "ConditionCheck" && !data.ConditionExpression) throw validation("ConditionExpression is required for a ConditionCheck");
    const checked = validations.checkTypes(data, rules[action].types);
    validations.checkValidations(checked, rules[action].types, rules[action].custom, store);
    checked.ReturnValuesOnConditionCheckFailure = data.ReturnValuesOnConditionCheckFailure;
    return { kind, action, data: checked };
  }

  /** Holds every item's lock (in one global order, so two transactions never wait on each other) while `work` runs. */
  async function locked(store, operations, work) {
    const ordered = [...operations].sort((a, b) => (a.lockKey < b.lockKey ? -1 : a.lockKey > b.lockKey ? 1 : 0));
    const releases = [];
    try {
      for (const op of ordered) {
        await new Promise((resolve) => store.getItemDb(op.data.TableName).lock(op.key, (release) => {
          releases.push(release);
          resolve();
        }));
      }
      return await work();
    } finally {
      for (const release of releases.reverse()) release(() => undefined)();
    }
  }

  /** The store as dynalite's actions see it, minus the item locks this transaction already holds. */
  function unlocked(store) {
    return new Proxy(store, {
      get(target, property) {
        if (property !== "getItemDb") return Reflect.get(target, property);
        return (name) => ({ ...target.getItemDb(name), lock: (key, fn) => fn((cb) => cb) });
      },
    });
  }

  async function write(store, request) {
    const items = request.TransactItems;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) {
      throw validation(`1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_ITEMS}`);
    }
    const hash = crypto.createHash("sha256").update(canonical(items)).digest("hex");
    const token = request.ClientRequestToken;
    const now = Date.now();
    for (const [key, seen] of tokens) if (now - seen.at > TOKEN_WINDOW_MS) tokens.delete(key);
    if (token !== undefined && tokens.has(token)) {
      if (tokens.get(token).hash !== hash) throw awsError("IdempotentParameterMismatchException", "Request with the same ClientRequestToken has different parameters.");
      return {};
    }
    const operations = items.map((entry, index) => parse(store, entry, index));
    const seenKeys = new Set();
    for (const op of operations) {
      const table = await promisify((cb) => store.getTable(op.data.TableName, cb));
      const invalid = op.kind === "Put" ? db.validateItem(op.data.Item, table) : db.validateKey(op.data.Key, table);
      if (invalid) throw invalid;
      op.table = table;
      op.key = db.createKey(op.kind === "Put" ? op.data.Item : op.data.Key, table);
      op.lockKey = `${op.data.TableName}\u0000${op.key}`;
      if (seenKeys.has(op.lockKey)) throw validation("Transaction request cannot include multiple operations on one item");
      seenKeys.add(op.lockKey);
    }
    await locked(store, operations, async () => {
      const before = await Promise.all(operations.map((op) => promisify((cb) => store.getItemDb(op.data.TableName).get(op.key, (error, item) => cb(error && error.name !== "NotFoundError" ? error : null, item)))));
      const reasons = operations.map((op, i) => {
        const failed = db.checkConditional(op.data, before[i]);
        if (!failed) return { Code: "None" };
        return { Code: "ConditionalCheckFailed", Message: failed.body.message, ...(failed.body.Item ? { Item: failed.body.Item } : {}) };
      });
      if (reasons.some((reason) => reason.Code !== "None")) throw cancelled(reasons);
      const done = [];
      try {
        for (const op of operations) {
          if (op.kind === "ConditionCheck") continue;
          const data = { ...op.data, _condition: undefined, Expected: undefined, ReturnValues: undefined };
          await promisify((cb) => actions[op.action](unlocked(store), data, cb));
          done.push(op);
        }
      } catch (error) {
        // Put back what was already written, then report which item could not be written.
        for (const op of done.reverse()) await restore(store, op, before[operations.indexOf(op)]);
        const failedAt = operations.findIndex((op) => !done.includes(op) && op.kind !== "ConditionCheck");
        throw cancelled(operations.map((_op, i) => (i === failedAt ? { Code: "ValidationError", Message: error.body?.message ?? String(error) } : { Code: "None" })));
      }
    });
    if (token !== undefined) tokens.set(token, { hash, at: now });
    return {};
  }

  async function restore(store, op, item) {
    const source = op.kind === "Put" ? op.data.Item : op.data.Key;
    const key = Object.fromEntries(op.table.KeySchema.map(({ AttributeName }) => [AttributeName, source[AttributeName]]));
    if (item) await promisify((cb) => actions.putItem(unlocked(store), { TableName: op.data.TableName, Item: item }, cb));
    else await promisify((cb) => actions.deleteItem(unlocked(store), { TableName: op.data.TableName, Key: key }, cb));
  }

  function cancelled(reasons) {
    const message = `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(", ")}]`;
    return awsError("TransactionCanceledException", message, { CancellationReasons: reasons });
  }

  async function get(store, request) {
    const items = request.TransactItems;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_ITEMS) {
      throw validation(`1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length between 1 and ${MAX_ITEMS}`);
    }
    const reads = items.map((entry, index) => {
      if (!entry || !entry.Get) throw validation(`TransactItems[${index + 1}] must be a Get`);
      const data = validations.checkTypes({ ...entry.Get, TableName: tableName(entry.Get.TableName), ConsistentRead: true }, rules.getItem.types);
      validations.checkValidations(data, rules.getItem.types, rules.getItem.custom, store);
      return data;
    });
    const answers = await Promise.all(reads.map((data) => promisify((cb) => actions.getItem(store, data, cb))));
    return { Responses: answers.map((answer) => (answer.Item ? { Item: answer.Item } : {})) };
  }

  return { write, get };
}

module.exports = { createTransactions };
