// The Lambda runtime inside one execution environment (a worker thread). It loads the deployed handler file
// unchanged, then runs one invocation at a time on request from the runner, reporting like AWS's Node.js
// runtime interface client does: same handler resolution, error shapes and crash exits.
// Plain ESM on purpose: worker threads are loaded by Node's own loader, whatever runs the parent (jest, tsx).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";

const { taskRoot, handler: fullHandler, discardOutput, clockBuffer } = workerData;

// Before the handler loads: its Date reads the local cloud's controllable clock (real time + a shared offset).
if (clockBuffer) createRequire(import.meta.url)("../../clock/offset-date.cjs").installOffsetDate(clockBuffer);

// Output nobody reads ("silent" logs) ends here instead of crossing to the host thread. The handler still
// formats and writes every line, as on Lambda; only the transport is skipped.
if (discardOutput) {
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = (_chunk, encoding, callback) => {
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") queueMicrotask(() => done());
      return true;
    };
  }
}

// ---- errors, spelled as the runtime spells them -------------------------------------------------------------
function runtimeError(name, message) {
  const error = new Error(message);
  error.name = `Runtime.${name}`;
  return error;
}

/** The `{ errorType, errorMessage, trace }` object the runtime reports for any thrown value. */
function toRapidResponse(error) {
  try {
    if (error instanceof Error || (error && typeof error.name === "string" && typeof error.stack === "string")) {
      return { errorType: error.name, errorMessage: error.message, trace: String(error.stack).split("\n") };
    }
    return { errorType: typeof error, errorMessage: String(error), trace: [] };
  } catch {
    return {
      errorType: "handled",
      errorMessage:
        "callback called with Error argument, but there was a problem while retrieving one or more of its message, name, and stack",
    };
  }
}

// ---- crash reporting: the runtime posts the error for the running invocation, then exits -----------------
let current; // requestId of the running invocation

process.on("uncaughtException", (error) => {
  parentPort.postMessage({ type: "crash", requestId: current, error: toRapidResponse(error) });
  process.exit(129);
});
process.on("unhandledRejection", (reason) => {
  const error = runtimeError("UnhandledPromiseRejection", String(reason));
  parentPort.postMessage({ type: "crash", requestId: current, error: toRapidResponse(error) });
  process.exit(128);
});

// ---- handler loading (module path + nested property, .js/.mjs/.cjs like the runtime) ----------------------
function isTypeModule(dir) {
  for (let folder = dir; ; folder = path.dirname(folder)) {
    const manifest = path.join(folder, "package.json");
    if (fs.existsSync(manifest)) {
      try {
        return JSON.parse(fs.readFileSync(manifest, "utf8")).type === "module";
      } catch {
        return false;
      }
    }
    if (folder === taskRoot || folder === path.dirname(folder)) return false;
  }
}

async function loadModule(file) {
  const require = createRequire(path.join(taskRoot, "noop.js"));
  if (fs.existsSync(file) && fs.statSync(file).isFile()) return require(file);
  const esm = isTypeModule(path.dirname(file));
  if (!esm && fs.existsSync(`${file}.js`)) return require(`${file}.js`);
  if (esm && fs.existsSync(`${file}.js`)) return import(pathToFileURL(`${file}.js`).href);
  if (fs.existsSync(`${file}.mjs`)) return import(pathToFileURL(`${file}.mjs`).href);
  if (fs.existsSync(`${file}.cjs`)) return require(`${file}.cjs`);
  const notFound = new Error(`Cannot find module '${path.basename(file)}'`);
  notFound.code = "MODULE_NOT_FOUND";
  throw notFound;
}

async function loadHandler() {
  if (fullHandler.includes("..")) {
    throw runtimeError(
      "MalformedHandlerName",
      `'${fullHandler}' is not a valid handler name. Use absolute paths when specifying root directories in handler names.`,
    );
  }
  const base = path.basename(fullHandler);
  const moduleRoot = fullHandler.slice(0, fullHandler.length - base.length);
  const match = /^([^.]*)\.(.*)$/.exec(base);
  if (!match) throw runtimeError("MalformedHandlerName", "Bad handler");
  let app;
  try {
    app = await loadModule(path.resolve(taskRoot, moduleRoot, match[1]));
  } catch (error) {
    if (error instanceof SyntaxError) throw runtimeError("UserCodeSyntaxError", String(error));
    if (error?.code === "MODULE_NOT_FOUND") throw runtimeError("ImportModuleError", String(error));
    throw error;
  }
  const fn = match[2].split(".").reduce((object, key) => object?.[key], app);
  if (typeof fn !== "function") throw runtimeError("HandlerNotFound", `${fullHandler} is undefined or not exported`);
  return fn;
}

// ---- invocations ------------------------------------------------------------------------------------------
function serialize(result) {
  try {
    return { ok: true, payload: JSON.stringify(result === undefined ? null : result) };
  } catch {
    return { ok: false, error: toRapidResponse(new Error("Unable to stringify response body")) };
  }
}

function invoke(handler, message) {
  const { requestId, payload, timeoutMs, invokedFunctionArn, traceId, delayMs, fault } = message;
  current = requestId;
  const deadline = Date.now() + timeoutMs;
  parentPort.postMessage({ type: "started", requestId });
  if (fault === "crash") process.exit(1);
  if (fault === "hang") return; // never answers: the runner's timeout ends it

  let finished = false;
  const finish = (outcome) => {
    if (finished) return;
    finished = true;
    if (current === requestId) current = undefined;
    parentPort.postMessage({ type: "done", requestId, ...outcome });
  };
  const succeed = (result) => {
    const serialized = serialize(result);
    finish(serialized.ok ? { ok: true, payload: serialized.payload } : serialized);
  };
  const fail = (error) => finish({ ok: false, error: toRapidResponse(error ?? "handled") });
  const callback = (error, result) => (error !== undefined && error !== null ? fail(error) : succeed(result));

  let waitForEmptyEventLoop = true;
  const context = {
    get callbackWaitsForEmptyEventLoop() {
      return waitForEmptyEventLoop;
    },
    set callbackWaitsForEmptyEventLoop(value) {
      waitForEmptyEventLoop = value;
    },
    succeed,
    fail,
    done: callback,
    functionVersion: process.env.AWS_LAMBDA_FUNCTION_VERSION,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    logGroupName: process.env.AWS_LAMBDA_LOG_GROUP_NAME,
    logStreamName: process.env.AWS_LAMBDA_LOG_STREAM_NAME,
    clientContext: undefined,
    identity: undefined,
    invokedFunctionArn,
    awsRequestId: requestId,
    getRemainingTimeInMillis: () => deadline - Date.now(),
  };

  const run = () => {
    process.env._X_AMZN_TRACE_ID = traceId;
    try {
      const result = handler(JSON.parse(payload), context, callback);
      if (result && typeof result.then === "function") {
        result.then(succeed, fail);
      } else if (handler.length < 3) {
        // A sync handler that cannot call back: the runtime answers null once the work is done.
        setImmediate(() => succeed(null));
      }
    } catch (error) {
      fail(error);
    }
  };
  if (delayMs > 0) setTimeout(run, delayMs);
  else run();
}

try {
  const handler = await loadHandler();
  parentPort.on("message", (message) => {
    if (message?.type === "invoke") invoke(handler, message);
  });
  parentPort.postMessage({ type: "ready" });
} catch (error) {
  parentPort.postMessage({ type: "init-error", error: toRapidResponse(error) });
}
