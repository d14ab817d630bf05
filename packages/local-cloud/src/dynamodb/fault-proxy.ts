import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { describeDynamoRequest } from "../faults";
import type { DynamoRequestInfo, FaultPlan } from "../faults";
import { DynamoStartError, InvalidDynamoOptionError } from "./errors";
import { dynamoErrorResponse } from "./wire-errors";
import type { WireResponse } from "./wire-errors";

/** What a hook wants done with a request (onRequest) or its answer (onResponse). */
export const ProxyVerdict = {
  /** Carry on: forward the request / deliver the answer. */
  Forward: "forward",
  /** Cut the client's connection without an answer (the request is not forwarded / the answer is lost). */
  Drop: "drop",
  /** Never answer; the connection stays open until the client goes away or the proxy stops. */
  Hold: "hold",
} as const;
export type ProxyVerdict = (typeof ProxyVerdict)[keyof typeof ProxyVerdict];

export interface ProxyRequestContext {
  /** Proxy-local sequence number. */
  seq: number;
  /** The id from the endpoint path `/w/<id>`, or undefined for the plain endpoint. */
  caller?: string;
  request: DynamoRequestInfo;
}

export interface ProxyResponseContext extends ProxyRequestContext {
  statusCode: number;
  /** Parsed JSON answer (undefined when not JSON). */
  body: unknown;
  /** True when the proxy answered itself (an injected fault) and the table was not touched. */
  injected: boolean;
}

type HookResult = void | ProxyVerdict | Promise<void | ProxyVerdict>;

interface ProxyHooks {
  /** Before the request is forwarded (and before fault-plan rules apply). */
  onRequest?(context: ProxyRequestContext): HookResult;
  /** After the answer came back, before the client gets it. */
  onResponse?(context: ProxyResponseContext): HookResult;
}

interface DynamoFaultProxyOptions {
  /** The real emulator, e.g. dynalite's endpoint. */
  target: string;
  /** DynamoDB rules (throttle, error, latency) of this plan apply to every request through the proxy. */
  faults?: FaultPlan;
  hooks?: ProxyHooks;
}

interface DynamoFaultProxyStats {
  requests: number;
  forwarded: number;
  injected: number;
  dropped: number;
  held: number;
  hookErrors: number;
  /** Requests held back by a latency rule, and the latency added to them in all (counted, so tests need not time them). */
  delayed: number;
  delayedMs: number;
}

export interface DynamoFaultProxy {
  /** Plain endpoint (requests carry no identity). */
  endpoint: string;
  port: number;
  /** An endpoint whose requests are tagged with `caller`: `http://127.0.0.1:PORT/w/<caller>`. */
  endpointFor(caller: string): string;
  /** Adds hooks; returns a function that removes them. */
  addHooks(hooks: ProxyHooks): () => void;
  stats(): DynamoFaultProxyStats;
  stop(): Promise<void>;
}

const CALLER_PATH = /^\/w\/([^/?]+)(\/[^?]*)?(\?.*)?$/;

/**
 * An HTTP proxy in front of the DynamoDB emulator that can inject faults and tell who sent each request.
 * Identity comes from the endpoint path: the AWS SDK v3 keeps an endpoint's path and sends JSON-protocol
 * calls to it, so a client configured with `endpointFor("payments-3")` posts to `/w/payments-3`.
 */
export async function startDynamoFaultProxy(options: DynamoFaultProxyOptions): Promise<DynamoFaultProxy> {
  const target = parseTarget(options.target);
  const hookSets = new Set<ProxyHooks>(options.hooks ? [options.hooks] : []);
  const stats: DynamoFaultProxyStats = { requests: 0, forwarded: 0, injected: 0, dropped: 0, held: 0, hookErrors: 0, delayed: 0, delayedMs: 0 };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let seq = 0;

  async function runHooks<C>(pick: (hooks: ProxyHooks) => ((context: C) => HookResult) | undefined, context: C) {
    for (const hooks of [...hookSets]) {
      const hook = pick(hooks);
      if (!hook) continue;
      try {
        const verdict = await hook.call(hooks, context);
        if (verdict === ProxyVerdict.Drop || verdict === ProxyVerdict.Hold) return verdict;
      } catch {
        stats.hookErrors += 1; // a broken hook must not break the table; the request goes on
      }
    }
    return ProxyVerdict.Forward;
  }

  function settle(res: ServerResponse, verdict: ProxyVerdict, answer: WireResponse): void {
    if (verdict === ProxyVerdict.Drop) {
      stats.dropped += 1;
      res.socket?.destroy();
    } else if (verdict === ProxyVerdict.Hold) {
      stats.held += 1; // left open on purpose; closeAllConnections() ends it at stop()
    } else {
      res.writeHead(answer.statusCode, answer.headers).end(answer.body);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    stats.requests += 1;
    const match = CALLER_PATH.exec(req.url ?? "/");
    const caller = match ? decodeURIComponent(match[1] as string) : undefined;
    const path = match ? `${match[2] ?? "/"}${match[3] ?? ""}` : (req.url ?? "/");
    const request = describeDynamoRequest(header(req, "x-amz-target"), parseJson(raw) ?? {}, caller);
    const context: ProxyRequestContext = { seq: ++seq, caller, request };

    const before = await runHooks((h) => h.onRequest, context);
    if (before !== ProxyVerdict.Forward) return settle(res, before, emptyAnswer());

    const decision = options.faults?.decideDynamo(request);
    if (decision && decision.latencyMs > 0) {
      stats.delayed += 1;
      stats.delayedMs += decision.latencyMs;
      await sleep(decision.latencyMs);
    }
    let answer: WireResponse;
    let injected = false;
    if (decision?.failure) {
      answer = dynamoErrorResponse(decision.failure.errorType, request);
      injected = true;
      stats.injected += 1;
    } else {
      answer = await forward(req, path, raw);
      stats.forwarded += 1;
    }
    const after = await runHooks((h) => h.onResponse, {
      ...context,
      statusCode: answer.statusCode,
      body: parseJson(Buffer.from(answer.body)),
      injected,
    });
    settle(res, after, answer);
  }

  function forward(req: IncomingMessage, path: string, body: Buffer): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path,
          agent,
          headers: { ...req.headers, "content-length": String(body.length) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            const headers: Record<string, string> = {};
            for (const [name, value] of Object.entries(response.headers)) {
              if (value !== undefined && name !== "connection" && name !== "keep-alive") {
                headers[name] = Array.isArray(value) ? value.join(", ") : value;
              }
            }
            resolve({ statusCode: response.statusCode ?? 502, headers, body: Buffer.concat(chunks).toString("utf8") });
          });
          response.on("error", reject);
        },
      );
      upstream.on("error", reject);
      upstream.end(body);
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        res.writeHead(502, { "Content-Type": "text/plain" }).end(`fault proxy: ${String(error)}`);
      }
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", (error) => reject(new DynamoStartError("DynamoDB fault proxy failed to start", { cause: error })));
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve(typeof address === "object" && address !== null ? address.port : 0);
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopping: Promise<void> | undefined;

  return {
    endpoint,
    port,
    endpointFor(caller: string): string {
      if (!caller) throw new InvalidDynamoOptionError("endpointFor(caller): caller must be a non-empty id");
      return `${endpoint}/w/${encodeURIComponent(caller)}`;
    },
    addHooks(hooks: ProxyHooks): () => void {
      hookSets.add(hooks);
      return () => hookSets.delete(hooks);
    },
    stats: () => ({ ...stats }),
    stop(): Promise<void> {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // includes held requests
        agent.destroy();
      });
      return stopping;
    },
  };
}

function parseTarget(target: string): URL {
  try {
    const url = new URL(target);
    if (url.protocol !== "http:") throw new Error("not http");
    return url;
  } catch (error) {
    throw new InvalidDynamoOptionError(`target must be the emulator's http:// endpoint, got ${JSON.stringify(target)}`, {
      cause: error,
    });
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function parseJson(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function emptyAnswer(): WireResponse {
  return { statusCode: 500, headers: {}, body: "" };
}
