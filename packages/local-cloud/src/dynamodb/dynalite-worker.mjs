// Runs dynalite in its own thread (and event loop). Plain ESM so any caller (jest, tsx, node) can start it.
// Serves one local cloud at a time; a stopped thread may serve the next one (../sqs/worker-server.ts): each start is a
// fresh in-memory store on the clock it names, and only the loaded modules and dynalite's patches carry over.
import { createRequire } from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import dynalite from "dynalite";
import offsetDate from "../clock/offset-date.cjs";

const require = createRequire(import.meta.url);
require("./dynalite-parse-cache.cjs").installParseCache(require);
const { installDynaliteFidelity } = require("./dynalite-fidelity.cjs");

let server;

function serve(data) {
  // Timestamps dynalite writes (table creation) follow the local cloud's controllable clock.
  if (data?.clockBuffer) offsetDate.followOffsetClock(data.clockBuffer);
  // Before dynalite(): the fidelity layer takes the store of the server created next.
  const fidelity = installDynaliteFidelity(require);
  server = dynalite(data?.options ?? {});
  fidelity.attach(server);

  // Requests per operation, counted into memory the host reads (see request-counter.ts; same slot rule).
  if (data?.counts && Array.isArray(data.operations)) {
    const counts = new Int32Array(data.counts);
    const slots = new Map(data.operations.map((name, i) => [name, i]));
    const other = data.operations.length - 1;
    server.on("request", (req) => {
      const target = String(req.headers["x-amz-target"] ?? "");
      const dot = target.lastIndexOf(".");
      Atomics.add(counts, (dot >= 0 ? slots.get(target.slice(dot + 1)) : undefined) ?? other, 1);
    });
  }

  server.on("error", (error) => parentPort.postMessage({ type: "failed", error: String(error?.stack ?? error) }));
  server.listen(0, "127.0.0.1", () => {
    parentPort.postMessage({ type: "listening", port: server.address().port });
  });
}

parentPort.on("message", (message) => {
  if (message?.type === "stop") {
    server.closeAllConnections?.();
    server.close((error) => parentPort.postMessage({ type: "stopped", error: error ? String(error) : undefined }));
  } else if (message?.type === "serve") {
    serve(message.workerData);
  }
});

serve(workerData);
