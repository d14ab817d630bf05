import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback, type LoopbackEndpoint } from "./loopback";

/** One local AWS JSON-protocol service: what it answers for a request's X-Amz-Target and body. */
export interface JsonService {
  /** `application/x-amz-json-1.0` or `-1.1`, as the service's API model says. */
  readonly contentType: string;
  /** The largest request body it reads; a larger one answers 413 `RequestEntityTooLargeException` (default: no limit). */
  readonly maxBodyBytes?: number;
  /**
   * The answer to one request, or its promise; throwing answers an error. `body()` parses the request (throwing
   * BodyNotJson if it is not JSON); `request` carries the method and headers (a SigV4 signature's region).
   */
  handle(target: string, body: () => object, request: IncomingMessage): unknown;
  /** The AWS error code of what `handle` threw, whether it is the caller's fault (4xx) or the service's (5xx), and the message (default: the error's). */
  errorOf(error: unknown): { code: string; status: number; message?: string };
}

/** A request body that is not JSON: the server answers SerializationException, 400. */
class BodyNotJson extends Error {}

/**
 * Writes one JSON answer as AWS's JSON protocols do: `contentType`, a request id, and on an error its code in
 * `x-amzn-errortype` (which AWS SDKs read before the body). Lambda's REST-JSON endpoint answers the same way.
 */
export function sendJson(res: ServerResponse, contentType: string, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": contentType,
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": randomUUID(),
    ...(errorType ? { "x-amzn-errortype": errorType } : {}),
  });
  res.end(text);
}

/** The request's body, or undefined when it passes `max` bytes (the rest is drained, so the answer reaches the client). */
async function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= max) chunks.push(chunk);
  }
  return size > max ? undefined : Buffer.concat(chunks).toString("utf8");
}

async function answer(service: JsonService, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const fail = (status: number, code: string, message: string) => sendJson(res, service.contentType, status, { __type: code, message }, code);
  const max = service.maxBodyBytes ?? Infinity;
  const text = await readBody(req, max);
  if (text === undefined) return fail(413, "RequestEntityTooLargeException", `The request body is larger than ${max} bytes.`);
  const body = () => {
    try {
      return (text ? JSON.parse(text) : {}) as object;
    } catch (e) {
      throw new BodyNotJson(`The request body is not JSON: ${(e as Error).message}`);
    }
  };
  try {
    sendJson(res, service.contentType, 200, await service.handle(String(req.headers["x-amz-target"] ?? ""), body, req));
  } catch (error) {
    const { code, status, message } = error instanceof BodyNotJson ? { code: "SerializationException", status: 400, message: error.message } : service.errorOf(error);
    fail(status, code, message ?? (error instanceof Error ? error.message : String(error)));
  }
}

/**
 * Serves `service` on 127.0.0.1 on `port` (0: a free one): reads each request whole, answers with the service's
 * content type and a request id, and an error as `{ __type, message }` with its code in `x-amzn-errortype` (a body
 * that is not JSON: SerializationException, 400).
 */
export async function startJsonService(service: JsonService, port = 0): Promise<LoopbackEndpoint> {
  const server = createServer((req, res) => {
    answer(service, req, res).catch((e: unknown) => {
      if (!res.headersSent) sendJson(res, service.contentType, 500, { __type: "InternalFailure", message: e instanceof Error ? e.message : String(e) }, "InternalFailure");
      else res.destroy();
    });
  });
  return listenOnLoopback(server, port);
}
