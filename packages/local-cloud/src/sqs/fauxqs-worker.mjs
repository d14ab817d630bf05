// Runs the fauxqs SQS emulator in its own thread (and event loop). Plain ESM on purpose: fauxqs is ESM-only,
// so it must be loaded by Node's native loader, never by a CommonJS transform such as jest's.
// Serves one local cloud at a time; a stopped thread may serve the next one (worker-server.ts): each start is a fresh
// store and app on the clock it names, and only the loaded modules and fauxqs's patched classes carry over.
import { parentPort, workerData } from "node:worker_threads";
import { buildApp } from "fauxqs";
import { SqsStore } from "./fidelity/fauxqs-internals.mjs";
import { installSqsFidelity, patchSqs } from "./fidelity/install.mjs";
import offsetDate from "../clock/offset-date.cjs";

// AWS's behaviour where fauxqs differs (fidelity/, see README): fauxqs's classes, patched once per thread.
patchSqs();

let app;

async function serve(data) {
  // SentTimestamp, visibility deadlines, delays, retention and move rates follow the local cloud's controllable clock.
  if (data?.clockBuffer) offsetDate.followOffsetClock(data.clockBuffer);
  const sqsStore = new SqsStore();
  app = buildApp({ logger: false, stores: { sqsStore } });
  installSqsFidelity(app, sqsStore);
  try {
    await app.listen({ port: 0, host: "127.0.0.1" });
    parentPort.postMessage({ type: "listening", port: app.server.address().port });
  } catch (error) {
    parentPort.postMessage({ type: "failed", error: String(error?.stack ?? error) });
  }
}

parentPort.on("message", (message) => {
  if (message?.type === "stop") {
    app.close().then(
      () => parentPort.postMessage({ type: "stopped" }),
      (error) => parentPort.postMessage({ type: "stopped", error: String(error) }),
    );
  } else if (message?.type === "serve") {
    void serve(message.workerData);
  }
});

await serve(workerData);
