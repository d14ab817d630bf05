// Runs the fauxqs SQS emulator in its own thread (and event loop). Plain ESM on purpose: fauxqs is ESM-only,
// so it must be loaded by Node's native loader, never by a CommonJS transform such as jest's.
import { parentPort, workerData } from "node:worker_threads";
import { buildApp } from "fauxqs";
import { SqsStore } from "./fidelity/fauxqs-internals.mjs";
import { installSqsFidelity, patchSqs } from "./fidelity/install.mjs";
import offsetDate from "../clock/offset-date.cjs";

// SentTimestamp, visibility deadlines, delays, retention and move rates follow the local cloud's controllable clock.
if (workerData?.clockBuffer) offsetDate.installOffsetDate(workerData.clockBuffer);

// AWS's behaviour where fauxqs differs (fidelity/, see README), then the app on a store the fidelity layer can reach.
patchSqs();
const sqsStore = new SqsStore();
const app = buildApp({ logger: false, stores: { sqsStore } });
installSqsFidelity(app, sqsStore);

parentPort.on("message", (message) => {
  if (message?.type === "stop") {
    app.close().then(
      () => parentPort.postMessage({ type: "stopped" }),
      (error) => parentPort.postMessage({ type: "stopped", error: String(error) }),
    );
  }
});

try {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  parentPort.postMessage({ type: "listening", port: address.port });
} catch (error) {
  parentPort.postMessage({ type: "failed", error: String(error?.stack ?? error) });
}
