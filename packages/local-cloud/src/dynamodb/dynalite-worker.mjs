// Runs dynalite in its own thread (and event loop). Plain ESM so any caller (jest, tsx, node) can start it.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import dynalite from "dynalite";
import offsetDate from "../clock/offset-date.cjs";

// Timestamps dynalite writes (table creation) follow the local cloud's controllable clock.
if (workerData?.clockBuffer) offsetDate.installOffsetDate(workerData.clockBuffer);

const require = createRequire(import.meta.url);
require("./dynalite-parse-cache.cjs").installParseCache(require);
const fidelity = require("./dynalite-fidelity.cjs").installDynaliteFidelity(require);

const server = dynalite(workerData?.options ?? {});
fidelity.attach(server);

// Requests per operation, counted into memory the host reads (see request-counter.ts; same slot rule).
if (workerData?.counts && Array.isArray(workerData.operations)) {
  const counts = new Int32Array(workerData.counts);
  const slots = new Map(workerData.operations.map((name, i) => [name, i]));
  const other = workerData.operations.length - 1;
  server.on("request", (req) => {
    const target = String(req.headers["x-amz-target"] ?? "");
    const dot = target.lastIndexOf(".");
    Atomics.add(counts, (dot >= 0 ? slots.get(target.slice(dot + 1)) : undefined) ?? other, 1);
  });
}

parentPort.on("message", (message) => {
  if (message?.type === "stop") {
    server.closeAllConnections?.();
    server.close((error) => parentPort.postMessage({ type: "stopped", error: error ? String(error) : undefined }));
  }
});

server.on("error", (error) => parentPort.postMessage({ type: "failed", error: String(error?.stack ?? error) }));
server.listen(0, "127.0.0.1", () => {
  parentPort.postMessage({ type: "listening", port: server.address().port });
});
