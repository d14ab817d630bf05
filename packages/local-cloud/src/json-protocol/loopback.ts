import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A local API endpoint on 127.0.0.1, and how to close it with every open connection. */
export interface LoopbackEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Binds an endpoint's server to 127.0.0.1 on `port` (0: a free one). */
export async function listenOnLoopback(server: Server, port = 0): Promise<LoopbackEndpoint> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${bound}`,
    port: bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
