/**
 * DynamoDB for the simulation: dynalite's own validation and action code (the same conditional-write, expression
 * and size-limit semantics the local cloud serves over HTTP), called in process against a fresh in-memory store,
 * with no HTTP in between. Two doors: a lean `send(command)` sender for the state machine (as the local cloud's
 * JSON-protocol client) and a real AWS SDK v3 client whose request handler calls the same code (for Powertools,
 * the function's document client and the operator tools).
 */
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { installAllOld, installParseCache, type DynamoDbSender } from "@effectively-once/local-cloud/emulators";
import type { VirtualClock } from "../clock/virtual-clock";

/* eslint-disable @typescript-eslint/no-require-imports -- dynalite is untyped CommonJS */
type Callback = (err: (Error & { statusCode?: number; body?: { __type?: string; message?: string; Message?: string; Item?: object } }) | null, data?: object) => void;
interface Validation {
  types: object;
  custom?: unknown;
}
const validations = require("dynalite/validations") as {
  checkTypes(data: object, types: object): object;
  checkValidations(data: object, types: object, custom: unknown, store: unknown): void;
  toLowerFirst(name: string): string;
};
const db = require("dynalite/db") as { create(options: object): unknown };
installParseCache(require);
// As the local cloud's DynamoDB: a failed condition under ALL_OLD returns the item (AWS, recorded).
installAllOld(require);

const OPERATIONS = ["BatchGetItem", "BatchWriteItem", "CreateTable", "DeleteItem", "DescribeTable", "GetItem", "PutItem", "Query", "Scan", "UpdateItem"];
const actions = new Map<string, { action: (store: unknown, data: object, cb: Callback) => void; validation: Validation }>();
for (const op of OPERATIONS) {
  const name = validations.toLowerFirst(op);
  actions.set(op, { action: require(`dynalite/actions/${name}`), validation: require(`dynalite/validations/${name}`) });
}
/* eslint-enable @typescript-eslint/no-require-imports */

const decoder = new TextDecoder();

/** An AWS error as the SDK surfaces it (name, message, $metadata). */
export class DynamoError extends Error {
  readonly $metadata: { httpStatusCode: number; requestId: string };
  readonly $fault: "client" | "server";
  /** The item a failed condition returns under `ReturnValuesOnConditionCheckFailure: ALL_OLD`. */
  readonly Item?: object;
  constructor(name: string, message: string, status: number, item?: object) {
    super(message);
    this.name = name;
    if (item) this.Item = item;
    this.$metadata = { httpStatusCode: status, requestId: "sim" };
    this.$fault = status >= 500 ? "server" : "client";
  }
}

/** One call as it reaches the store, for the run's counters and the fault hooks. */
export interface DynamoCall {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  /** Who calls: the state machine ("sfn"), the function ("fn") or an operator tool ("ops"). */
  readonly caller: string;
}

/**
 * Runs around every call: may delay it, fail it before it reaches the store, or lose its answer after. `apply`
 * takes another input to send instead (the audit asks a write for its old item).
 */
export type DynamoHook = (call: DynamoCall, apply: (input?: object) => Promise<object>) => Promise<object>;

export interface SimDynamo {
  /** Executes one operation (wire-shaped input, e.g. `{ TableName, Item: { pk: { S } } }`). */
  call(operation: string, input: object, caller: string): Promise<object>;
  /** For the state machine and the TTL sweeper. */
  sender(caller: string): DynamoDbSender;
  /** A real SDK client served by the same store. */
  sdkClient(caller: string): DynamoDBClient;
  /** CreateTable, and the table ACTIVE at once (dynalite would flip it on a real timer, ~1 ms of idle per run). */
  createTable(input: object): Promise<void>;
}

export function createSimDynamo(clock: VirtualClock, hook?: DynamoHook): SimDynamo {
  const store = db.create({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0, maxItemSizeKb: 400 });

  const direct = (operation: string, input: object): Promise<object> => {
    const entry = actions.get(operation);
    if (!entry) return Promise.reject(new DynamoError("UnknownOperationException", `simulation: ${operation} is not served`, 400));
    return clock.track(
      new Promise<object>((resolve, reject) => {
        const fail = (err: Parameters<Callback>[0]): void => {
          if (!err?.statusCode) return reject(err);
          const type = err.body?.__type ?? "InternalServerError";
          reject(new DynamoError(type.slice(type.indexOf("#") + 1), err.body?.message ?? err.body?.Message ?? "", err.statusCode, err.body?.Item));
        };
        try {
          // A JSON round trip, as on the wire: the store never shares objects with the caller.
          let data = JSON.parse(JSON.stringify(input)) as object;
          data = validations.checkTypes(data, entry.validation.types);
          validations.checkValidations(data, entry.validation.types, entry.validation.custom, store);
          entry.action(store, data, (err, out) => (err ? fail(err) : resolve(JSON.parse(JSON.stringify(out ?? {})) as object)));
        } catch (err) {
          fail(err as Parameters<Callback>[0]);
        }
      }),
    );
  };

  const call = (operation: string, input: object, caller: string): Promise<object> =>
    hook ? hook({ operation, input: input as Record<string, unknown>, caller }, (other) => direct(operation, other ?? input)) : direct(operation, input);

  const tables = (store as { tableDb: { put(key: string, value: object, cb: (err?: Error) => void): void } }).tableDb;
  return {
    call,
    async createTable(input) {
      const { TableDescription } = (await direct("CreateTable", input)) as { TableDescription: { TableName: string } };
      await new Promise<void>((resolve, reject) => tables.put(TableDescription.TableName, { ...TableDescription, TableStatus: "ACTIVE" }, (err) => (err ? reject(err) : resolve())));
    },
    sender: (caller) => ({
      send: (command) => call(command.constructor.name.replace(/Command$/, ""), command.input, caller),
    }),
    sdkClient: (caller) => {
      const client = new DynamoDBClient({
        region: "us-east-1",
        endpoint: "http://dynamodb.sim",
        credentials: { accessKeyId: "sim", secretAccessKey: "sim" },
        maxAttempts: 1,
        requestHandler: {
          async handle(request: { headers: Record<string, string>; body?: string | Uint8Array }) {
            const operation = (request.headers["x-amz-target"] ?? "").split(".")[1] ?? "";
            let status = 200;
            let out: object;
            try {
              // The SDK's body is a Uint8Array that warns when used as a string: decode its bytes.
              const text = typeof request.body === "string" ? request.body : request.body ? decoder.decode(request.body) : "{}";
              out = await call(operation, JSON.parse(text) as object, caller);
            } catch (err) {
              const e = err as DynamoError;
              status = e.$metadata?.httpStatusCode ?? 500;
              out = { __type: `com.amazonaws.dynamodb.v20120810#${e.name}`, message: e.message, ...(e.Item ? { Item: e.Item } : {}) };
            }
            const body = Buffer.from(JSON.stringify(out));
            return { response: { statusCode: status, reason: "", headers: { "content-type": "application/x-amz-json-1.0", "x-amzn-requestid": "sim" }, body } };
          },
        } as never,
      });
      // Nothing checks a signature in process, and SigV4 was a third of the SDK's cost per call here.
      client.middlewareStack.remove("httpSigningMiddleware");
      return client;
    },
  };
}
