/**
 * The local cloud's Step Functions endpoint: AWS's JSON 1.0 protocol (POST, `X-Amz-Target: AWSStepFunctions.<Action>`,
 * `application/x-amz-json-1.0`), answered from the action table (actions.ts) by the local cloud's shared JSON-protocol server
 * (src/json-protocol/server.ts). Errors travel as AWS sends them: HTTP 400 with `{"__type": "<Code>", "message": "..."}`. Binds 127.0.0.1 on a free port unless told otherwise.
 *
 * AWS's model puts TestState behind the host prefix `sync-`, which AWS SDKs and CLIs add to any endpoint they are given
 * (`sync-127.0.0.1` does not resolve): clients switch it off, `disableHostPrefix: true` for the AWS SDK for
 * JavaScript v3, `AWS_DISABLE_HOST_PREFIX_INJECTION=true` for the AWS CLI and boto3.
 */
import type { IncomingMessage } from "node:http";
import { startJsonService } from "../json-protocol/server";
import { TestStateApiError } from "../stepfunctions/test-state";
import { ACTIONS, type ActionContext } from "./actions";

const TARGET_PREFIX = "AWSStepFunctions.";
/** A definition may be 1 MiB and five JSON members 256 KiB each: a request above this is no TestState request. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A request for an action the endpoint does not answer, or not a POST (every JSON-protocol action is one). */
class UnknownOperation extends Error {}

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

/** The region a SigV4-signed request names in its credential scope (`Credential=<key>/<date>/<region>/states/...`). */
function signedRegion(req: IncomingMessage): string | undefined {
  return /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\//.exec(req.headers.authorization ?? "")?.[1];
}

function errorOf(e: unknown): { code: string; status: number; message?: string } {
  if (e instanceof TestStateApiError) return { code: e.code, status: e.statusCode };
  if (e instanceof UnknownOperation) return { code: "UnknownOperationException", status: 400 };
  return { code: "InternalFailure", status: 500, message: `The local Step Functions endpoint failed: ${e instanceof Error ? e.message : String(e)}` };
}

/** Starts the endpoint on 127.0.0.1. `stop()` closes it and every open connection. */
export async function startStepFunctionsEndpoint(options: StepFunctionsEndpointOptions = {}): Promise<StepFunctionsEndpoint> {
  const { port: wanted = 0, ...context } = options;
  const region = context.region ?? "us-east-1";
  const handle = (target: string, body: () => object, req: IncomingMessage) => {
    const action = target.startsWith(TARGET_PREFIX) ? ACTIONS.get(target.slice(TARGET_PREFIX.length)) : undefined;
    if (req.method !== "POST" || !action) {
      throw new UnknownOperation(`The local Step Functions endpoint answers ${[...ACTIONS.keys()].map((a) => TARGET_PREFIX + a).join(", ")}; got ${req.method} with X-Amz-Target '${target}'`);
    }
    return action(body(), { ...context, region: signedRegion(req) ?? region });
  };
  const { endpoint, port, stop } = await startJsonService({ contentType: "application/x-amz-json-1.0", maxBodyBytes: MAX_BODY_BYTES, handle, errorOf }, wanted);
  return { endpoint, port, region, stop };
}
