import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";

/**
 * Writes `source` (ESM JavaScript) into a temp folder and bundles it with esbuild the way the project bundles
 * its functions: one CommonJS `index.js`, dependencies (e.g. the AWS SDK) inlined.
 */
export async function buildHandlerBundle(source: string): Promise<{ dir: string; cleanup(): Promise<void> }> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "lambda-fixture-"));
  const entry = path.join(root, "src", "handler.mjs");
  await fs.mkdir(path.dirname(entry), { recursive: true });
  await fs.writeFile(entry, source);
  const dir = path.join(root, "dist");
  await build({
    entryPoints: [entry],
    outfile: path.join(dir, "index.js"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    logLevel: "silent",
    // Resolve packages from the project, as the real build does.
    nodePaths: [path.resolve(__dirname, "../../../../node_modules")],
  });
  return { dir, cleanup: () => fs.rm(root, { recursive: true, force: true }) };
}

/** A handler with no dependencies, for the runtime behaviours. */
export const BASIC_HANDLER = `
let count = 0;
class PaymentDeclined extends Error {
  constructor(message) { super(message); this.name = "PaymentDeclined"; }
}
export const handler = async (event, context) => {
  count += 1;
  switch (event.action) {
    case "count": return { count };
    case "env": return Object.fromEntries(event.keys.map((k) => [k, process.env[k] ?? null]));
    case "envKeys": return Object.keys(process.env).sort();
    case "context": return {
      awsRequestId: context.awsRequestId,
      functionName: context.functionName,
      functionVersion: context.functionVersion,
      invokedFunctionArn: context.invokedFunctionArn,
      memoryLimitInMB: context.memoryLimitInMB,
      logGroupName: context.logGroupName,
      logStreamName: context.logStreamName,
      remaining: context.getRemainingTimeInMillis(),
      callbackWaitsForEmptyEventLoop: context.callbackWaitsForEmptyEventLoop,
      traceId: process.env._X_AMZN_TRACE_ID,
    };
    case "throw": throw new PaymentDeclined("card declined");
    case "throwString": throw "plain string";
    case "sleep": {
      await new Promise((resolve) => setTimeout(resolve, event.ms));
      return { count, remaining: context.getRemainingTimeInMillis() };
    }
    case "exit": process.exit(event.code);
    case "uncaught":
      setTimeout(() => { throw new TypeError("kaboom"); }, 1);
      return new Promise(() => {});
    case "reject":
      Promise.reject(new Error("yikes"));
      return new Promise(() => {});
    case "log":
      console.log(JSON.stringify({ level: "INFO", message: event.message }));
      console.error("to stderr");
      return "logged";
    case "big": return "x".repeat(event.size);
    case "nothing": return undefined;
    default: return { event };
  }
};
export const callbackHandler = (event, context, callback) => {
  setTimeout(() => callback(null, { via: "callback", event }), 5);
};
export const nested = { deep: { handler: async () => "nested" } };
`;

/** A handler that writes its side effect to DynamoDB with the real AWS SDK, through AWS_ENDPOINT_URL_DYNAMODB. */
export const DYNAMO_HANDLER = `
import { DynamoDBClient, PutItemCommand } from "@aws-sdk/client-dynamodb";
const clients = new Map();
const client = (maxAttempts) => {
  if (!clients.has(maxAttempts)) clients.set(maxAttempts, new DynamoDBClient(maxAttempts ? { maxAttempts } : {}));
  return clients.get(maxAttempts);
};
export const handler = async (event, context) => {
  const out = await client(event.maxAttempts).send(new PutItemCommand({
    TableName: process.env.EFFECTS_TABLE,
    Item: { pk: { S: event.key }, sk: { S: "CHARGE" }, requestId: { S: context.awsRequestId } },
  }));
  return { attempts: out.$metadata.attempts, remaining: context.getRemainingTimeInMillis() };
};
`;
