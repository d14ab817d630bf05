/**
 * The local Lambda API endpoint: AWS's REST-JSON protocol, answering GetFunctionConfiguration
 * (`GET /2015-03-31/functions/{FunctionName}/configuration`) for the stack's functions with the configuration the
 * local cloud runs them with, so a client (`pipeline-ops`) reads the deployed function's variables as it would on AWS,
 * not from an outputs file. A name, a full ARN or a partial ARN (`<account>:function:<name>`) finds a function;
 * anything else answers `ResourceNotFoundException` (404), as Lambda does. Binds 127.0.0.1 on a free port. Only the
 * answer's writing is shared with the JSON-protocol endpoints (src/json-protocol/server.ts): REST-JSON routes by method
 * and path, not X-Amz-Target, and answers errors as `{ Type, Message }` with the code in `x-amzn-errortype`.
 */
import { createServer, type ServerResponse } from "node:http";
import { listenOnLoopback } from "../json-protocol/loopback";
import { sendJson } from "../json-protocol/server";

/** What the endpoint knows of a function: the fields of AWS's `FunctionConfiguration` the local cloud has. */
export interface LambdaApiFunction {
  readonly name: string;
  readonly arn: string;
  readonly runtime: string;
  readonly handler: string;
  readonly timeoutSeconds: number;
  readonly memoryMb: number;
  readonly environment: Readonly<Record<string, string>>;
}

const CONFIGURATION_PATH = /^\/2015-03-31\/functions\/([^/]+)\/configuration\/?$/;

const send = (res: ServerResponse, status: number, body: unknown, errorType?: string) => sendJson(res, "application/json", status, body, errorType);

/** The function a FunctionName parameter names (name, ARN, or `<account>:function:<name>`), ignoring a `:$LATEST` qualifier. */
function find(functions: readonly LambdaApiFunction[], parameter: string): LambdaApiFunction | undefined {
  const name = parameter.replace(/:\$LATEST$/, "");
  return functions.find((f) => f.name === name || f.arn === name || f.arn.endsWith(`:${name}`));
}

/** GetFunctionConfiguration's answer (AWS's `FunctionConfiguration` shape; only the members the local cloud knows). */
function configuration(f: LambdaApiFunction): Record<string, unknown> {
  return {
    FunctionName: f.name,
    FunctionArn: f.arn,
    Runtime: f.runtime,
    Handler: f.handler,
    Timeout: f.timeoutSeconds,
    MemorySize: f.memoryMb,
    Version: "$LATEST",
    State: "Active",
    // Lambda omits Environment for a function without variables.
    ...(Object.keys(f.environment).length > 0 ? { Environment: { Variables: { ...f.environment } } } : {}),
  };
}

/** A running local Lambda API endpoint. */
export interface LambdaApiEndpoint {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  stop(): Promise<void>;
}

/** Starts the endpoint over the stack's functions on 127.0.0.1, on a free port. */
export async function startLambdaApiEndpoint(functions: readonly LambdaApiFunction[]): Promise<LambdaApiEndpoint> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://local").pathname;
      const match = req.method === "GET" ? CONFIGURATION_PATH.exec(path) : null;
      if (!match) {
        send(res, 404, { Type: "User", message: `The local Lambda endpoint answers GetFunctionConfiguration only; got ${req.method} ${path}` }, "UnknownOperationException");
        return;
      }
      const parameter = decodeURIComponent(match[1]);
      const found = find(functions, parameter);
      if (!found) send(res, 404, { Type: "User", Message: `Function not found: ${parameter}` }, "ResourceNotFoundException");
      else send(res, 200, configuration(found));
    });
  });
  const { endpoint, stop } = await listenOnLoopback(server);
  return { endpoint, stop };
}
