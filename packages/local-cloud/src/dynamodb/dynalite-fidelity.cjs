// Where dynalite 4 differs from DynamoDB in ways the pipeline and its users reach, fixed in front of and inside it
// (both placements load this file, like the parse cache):
// - `ReturnValuesOnConditionCheckFailure: ALL_OLD` returns the item with ConditionalCheckFailedException (PutItem,
//   UpdateItem, DeleteItem; recorded on AWS), and with a transaction's ConditionalCheckFailed reason;
// - TransactWriteItems and TransactGetItems (dynalite-transactions.cjs);
// - UpdateTimeToLive and DescribeTimeToLive answer from the table's TTL setting (ENABLED and its attribute, set by
//   UpdateTimeToLive, e.g. from the stack's `ttl` block at provisioning) instead of always DISABLED. Expiry itself
//   is the TTL sweeper's (ttl-sweeper.ts).
// Call `installDynaliteFidelity(require)` before `dynalite()` creates its server, then `attach(server)`.
"use strict";

const crypto = require("node:crypto");
const { createRequire } = require("node:module");
const { createTransactions } = require("./dynalite-transactions.cjs");

const ALL_OLD_ACTIONS = ["putItem", "updateItem", "deleteItem"];
const JSON_TYPE = "application/x-amz-json-1.0";

/** The item with a failed condition under `ALL_OLD` (PutItem, UpdateItem, DeleteItem): also for in-process callers. */
function installAllOld(requireFn) {
  const db = requireFn("dynalite/db");
  for (const action of ALL_OLD_ACTIONS) {
    requireFn(`dynalite/validations/${action}`).types.ReturnValuesOnConditionCheckFailure = { type: "String", enum: ["ALL_OLD", "NONE"] };
  }
  if (db.checkConditional.awsAllOld) return;
  const checkConditional = db.checkConditional;
  db.checkConditional = Object.assign(function (data, existingItem) {
    const failed = checkConditional(data, existingItem);
    if (failed && existingItem && data.ReturnValuesOnConditionCheckFailure === "ALL_OLD") failed.body.Item = existingItem;
    return failed;
  }, { awsAllOld: true });
}

function installDynaliteFidelity(requireFn) {
  const db = requireFn("dynalite/db");
  installAllOld(requireFn);
  // The store of the server created next: the operations added here act on dynalite's own data.
  let store;
  const create = db.create;
  db.create = (options) => {
    db.create = create;
    store = create(options);
    return store;
  };
  const crc32 = createRequire(requireFn.resolve("dynalite"))("buffer-crc32");
  const transactions = createTransactions(requireFn);
  const ttl = createTimeToLive();
  const operations = new Map([
    ["TransactWriteItems", (body) => transactions.write(store, body)],
    ["TransactGetItems", (body) => transactions.get(store, body)],
    ["UpdateTimeToLive", (body) => ttl.update(store, body)],
    ["DescribeTimeToLive", (body) => ttl.describe(store, body)],
  ]);
  return {
    /** Serves the added operations on `server`; every other request goes to dynalite unchanged. */
    attach(server) {
      const [dynaliteHandler] = server.listeners("request");
      server.removeListener("request", dynaliteHandler);
      server.prependListener("request", (req, res) => {
        const target = String(req.headers["x-amz-target"] ?? "");
        const operation = operations.get(target.slice(target.lastIndexOf(".") + 1));
        if (!operation || req.method !== "POST") return dynaliteHandler(req, res);
        const chunks = [];
        req.on("data", (chunk) => chunks.push(chunk));
        req.on("end", () => {
          let body;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
          } catch {
            return send(res, crc32, 400, { __type: "com.amazon.coral.service#SerializationException" });
          }
          Promise.resolve()
            .then(() => operation(body))
            .then(
              (answer) => send(res, crc32, 200, answer),
              (error) => (error && error.statusCode ? send(res, crc32, error.statusCode, error.body) : send(res, crc32, 500, { __type: "com.amazonaws.dynamodb.v20120810#InternalServerError", message: String(error) })),
            );
        });
      });
    },
  };
}

/** Answers as dynalite does: a 52-character request id and the body's CRC32. */
function send(res, crc32, status, body) {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("x-amzn-RequestId", crypto.randomBytes(39).toString("base64").toUpperCase().replace(/\+|\//g, "0"));
  res.setHeader("x-amz-crc32", crc32.unsigned(text));
  res.setHeader("Content-Type", JSON_TYPE);
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/** TTL settings per table, tied to the table's creation time (a table deleted and created again starts DISABLED). */
function createTimeToLive() {
  const settings = new Map();
  const tableOf = (store, name) =>
    new Promise((resolve, reject) => store.getTable(String(name ?? ""), false, (error, table) => (error ? reject(error) : resolve(table))));
  const validation = (message) => Object.assign(new Error(message), { statusCode: 400, body: { __type: "com.amazon.coral.validate#ValidationException", message } });
  const current = (table) => {
    const setting = settings.get(table.TableName);
    return setting && setting.created === table.CreationDateTime ? setting : undefined;
  };
  return {
    async describe(store, body) {
      const setting = current(await tableOf(store, body.TableName));
      return { TimeToLiveDescription: setting ? { TimeToLiveStatus: "ENABLED", AttributeName: setting.attributeName } : { TimeToLiveStatus: "DISABLED" } };
    },
    async update(store, body) {
      const spec = body.TimeToLiveSpecification;
      if (!spec || typeof spec.Enabled !== "boolean" || typeof spec.AttributeName !== "string" || spec.AttributeName.length < 1 || spec.AttributeName.length > 255) {
        throw validation("TimeToLiveSpecification needs Enabled (a boolean) and AttributeName (1 to 255 characters)");
      }
      const table = await tableOf(store, body.TableName);
      const setting = current(table);
      if (spec.Enabled && setting) throw validation("TimeToLive is already enabled");
      if (!spec.Enabled && !setting) throw validation("TimeToLive is already disabled");
      if (!spec.Enabled && setting.attributeName !== spec.AttributeName) throw validation(`TimeToLive is enabled on attribute ${setting.attributeName}, not ${spec.AttributeName}`);
      if (spec.Enabled) settings.set(table.TableName, { attributeName: spec.AttributeName, created: table.CreationDateTime });
      else settings.delete(table.TableName);
      return { TimeToLiveSpecification: { Enabled: spec.Enabled, AttributeName: spec.AttributeName } };
    },
  };
}

module.exports = { installAllOld, installDynaliteFidelity };
