/**
 * The local cloud's Step Functions endpoint: AWS's JSON 1.0 protocol (POST, `X-Amz-Target: AWSStepFunctions.<Action>`,
 * `application/x-amz-json-1.0`), answered from the action table (actions.ts). Errors travel as AWS sends them: HTTP
 * 400 with `{"__type": "<Code>", "message": "..."}`. Binds 127.0.0.1 on a free port unless told otherwise.
 *
 * AWS's model puts TestState behind the host prefix `sync-`, which AWS SDKs and CLIs add to any endpoint they are given
 * (`sync-127.0.0.1` does not resolve): clients switch it off, `disableHostPrefix: true` for the AWS SDK for
 * JavaScript v3, `AWS_DISABLE_HOST_PREFIX_INJECTION=true` for the AWS CLI and boto3.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { listenOnLoopback } from "../json-protocol/loopback";
import { TestStateApiError } from "../stepfunctions/test-state";
import { ACTIONS, type ActionContext } from "./actions";

const TARGET_PREFIX = "AWSStepFunctions.";
/** A definition may be 1 MiB and five JSON members 256 KiB each: a request above this is no TestState request. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Options of {@link startStepFunctionsEndpoint}: TestState's options, and the port. */
export interface StepFunctionsEndpointOptions extends ActionContext {
  /** Port to listen on (default 0: a free one). */
  readonly port?: number;
}

/** A running local Step Functions endpoint. */
export interface StepFunctionsEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  /** The port it listens on. */
  readonly port: number;
  /** The region of the ARNs it makes, unless a request is signed for another. */
  readonly region: string;
  /** Closes it and every open connection. */
  stop(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, errorType?: string): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/x-amz-json-1.0",
    "content-length": Buffer.byteLength(text),
    "x-amzn-requestid": randomUUID(),
    ...(errorType ? { "x-amzn-errortype": errorType } : {}),
  });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, code: string, message: string) => send(res, status, { __type: code, message }, code);

/** The region a SigV4-signed request names in its credential scope (`Credential=<key>/<date>/<region>/states/...`). */
function signedRegion(req: IncomingMessage): string | undefined {
  return /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\//.exec(req.headers.authorization ?? "")?.[1];
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function handle(req: IncomingMessage, res: ServerResponse, context: ActionContext): Promise<void> {
  const target = String(req.headers["x-amz-target"] ?? "");
  const action = target.startsWith(TARGET_PREFIX) ? ACTIONS.get(target.slice(TARGET_PREFIX.length)) : undefined;
  if (req.method !== "POST" || !action) {
    fail(res, 400, "UnknownOperationException", `The local Step Functions endpoint answers ${[...ACTIONS.keys()].map((a) => TARGET_PREFIX + a).join(", ")}; got ${req.method} with X-Amz-Target '${target}'`);
    return;
  }
  const text = await readBody(req);
  if (text === undefined) {
    fail(res, 413, "RequestEntityTooLargeException", `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    return;
  }
  let body: unknown;
  try {
    body = text === "" ? {} : JSON.parse(text);
  } catch (e) {
    fail(res, 400, "SerializationException", `The request body is not JSON: ${(e as Error).message}`);
    return;
  }
  try {
    send(res, 200, await action(body, { ...context, region: signedRegion(req) ?? context.region }));
  } catch (e) {
    if (e instanceof TestStateApiError) fail(res, e.statusCode, e.code, e.message);
    else fail(res, 500, "InternalFailure", `The local Step Functions endpoint failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Starts the endpoint on 127.0.0.1. `stop()` closes it and every open connection. */
export async function startStepFunctionsEndpoint(options: StepFunctionsEndpointOptions = {}): Promise<StepFunctionsEndpoint> {
  const { port: wanted = 0, ...context } = options;
  const region = context.region ?? "us-east-1";
  const server = createServer((req, res) => {
    handle(req, res, { ...context, region }).catch((e: unknown) => {
      if (!res.headersSent) fail(res, 500, "InternalFailure", e instanceof Error ? e.message : String(e));
      else res.destroy();
    });
  });
  const { endpoint, port, stop } = await listenOnLoopback(server, wanted);
  return { endpoint, port, region, stop };
}
