import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback, type LoopbackEndpoint } from "./loopback";

/** One local AWS JSON-protocol service: what it answers for a request's X-Amz-Target and body. */
export interface JsonService {
  /** `application/x-amz-json-1.0` or `-1.1`, as the service's API model says. */
  readonly contentType: string;
  /** The answer to one request; throwing answers an error. `body()` parses the request (a SyntaxError if it is not JSON). */
  handle(target: string, body: () => object): unknown;
  /** The AWS error code of what `handle` threw, and whether it is the caller's fault (400) or the service's (500). */
  errorOf(error: unknown): { code: string; status: 400 | 500 };
}

function send(res: ServerResponse, contentType: string, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text), "x-amzn-requestid": randomUUID() });
  res.end(text);
}

/**
 * Serves `service` on 127.0.0.1 on a free port: reads each request whole, answers with the service's content type and
 * a request id, and an error as `{ __type, message }` (a body that is not JSON: SerializationException, 400).
 */
export async function startJsonService(service: JsonService): Promise<LoopbackEndpoint> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const target = String(req.headers["x-amz-target"] ?? "");
      try {
        const body = () => {
          const text = Buffer.concat(chunks).toString("utf8");
          return (text ? JSON.parse(text) : {}) as object;
        };
        send(res, service.contentType, 200, service.handle(target, body));
      } catch (error) {
        const { code, status } = error instanceof SyntaxError ? { code: "SerializationException", status: 400 } : service.errorOf(error);
        send(res, service.contentType, status, { __type: code, message: (error as Error).message });
      }
    });
  });
  return listenOnLoopback(server);
}
