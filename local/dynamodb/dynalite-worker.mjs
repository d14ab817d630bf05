// Runs dynalite in its own thread (and event loop). Plain ESM so any caller (jest, tsx, node) can start it.
import { parentPort, workerData } from "node:worker_threads";
import dynalite from "dynalite";

const server = dynalite(workerData?.options ?? {});

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
