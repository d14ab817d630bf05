import type { Server } from "node:http";
import path from "node:path";
import { startWorkerServer } from "../sqs/worker-server";
import { DynamoStartError, InvalidDynamoOptionError } from "./errors";
import { COUNTED_OPERATIONS, createRequestCounter, type RequestCounter } from "./request-counter";
import { sharedClock } from "../clock";
import { installDynaliteFidelity, installParseCache } from "./dynalite-patches";

/** Where dynalite runs. */
export const DynamoPlacement = {
  /** Its own worker thread and event loop. */
  Worker: "worker",
  /** The caller's event loop (default: measured faster from the main thread, see packages/cli/src/load/bench-dynamo-placement.ts). */
  InProcess: "in-process",
} as const;
export type DynamoPlacement = (typeof DynamoPlacement)[keyof typeof DynamoPlacement];

interface StartDynamoOptions {
  placement?: DynamoPlacement;
}

/** A running DynamoDB emulator. */
export interface LocalDynamo {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  port: number;
  placement: DynamoPlacement;
  /** Requests served so far, per operation (`PutItem`, `GetItem`, …; "other" for the rest). */
  requests(): Record<string, number>;
  stop(): Promise<void>;
}

/** dynalite has no type declarations; this is the part used here. */
type DynaliteFactory = (options: Record<string, unknown>) => Server;

/** In memory, and tables are ACTIVE at once (dynalite's default keeps them CREATING for 500 ms). */
const DYNALITE_OPTIONS = { createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 } as const;

/** Starts dynalite 4 (in memory) on 127.0.0.1 and a free port. */
export async function startDynamo(options: StartDynamoOptions = {}): Promise<LocalDynamo> {
  const placement = options.placement ?? DynamoPlacement.InProcess;
  const counter = createRequestCounter();
  if (placement === DynamoPlacement.Worker) {
    const server = await startWorkerServer(path.join(__dirname, "dynalite-worker.mjs"), {
      name: "dynalite (DynamoDB emulator)",
      workerData: { options: DYNALITE_OPTIONS, counts: counter.buffer, operations: COUNTED_OPERATIONS, clockBuffer: sharedClock().buffer },
    }).catch((error: unknown) => {
      throw new DynamoStartError("dynalite failed to start in its worker thread", { cause: error });
    });
    return { endpoint: server.endpoint, port: server.port, placement, requests: counter.snapshot, stop: server.stop };
  }
  if (placement === DynamoPlacement.InProcess) return startInProcess(counter);
  throw new InvalidDynamoOptionError(`placement must be "worker" or "in-process", got ${JSON.stringify(placement)}`);
}

async function startInProcess(counter: RequestCounter): Promise<LocalDynamo> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- untyped CommonJS package
  const dynalite = require("dynalite") as DynaliteFactory;
  installParseCache(require);
  const fidelity = installDynaliteFidelity(require);
  const server = dynalite({ ...DYNALITE_OPTIONS });
  fidelity.attach(server);
  server.on("request", (req: { headers: Record<string, string | string[] | undefined> }) => counter.record(req.headers["x-amz-target"]));
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", (error) => reject(new DynamoStartError("dynalite failed to start", { cause: error })));
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : 0);
    });
  });
  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    placement: DynamoPlacement.InProcess,
    requests: counter.snapshot,
    stop(): Promise<void> {
      stopping ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return stopping;
    },
  };
}
