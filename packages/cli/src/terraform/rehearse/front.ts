import { createServer, request } from "node:http";
import { validateAnswer, type Check } from "../definition-validator";
import { listenOnLoopback, readBody, replyJson } from "../json-http";
import { motoCall } from "./moto-http";

/**
 * A thin HTTP front before moto on 127.0.0.1: it answers the two Step Functions calls that moto 5.2.1 does not
 * implement (hashicorp/aws 5.100.0 makes both for every state machine) and passes every other request through
 * untouched. Nothing else is rewritten, so every other answer the provider sees is moto's own.
 * - ValidateStateMachineDefinition: the project's own check of the definition (see definition-check.ts).
 * - ListStateMachineVersions: an empty list (the stack publishes no versions).
 * - SQS GetQueueAttributes: moto's answer, with RedrivePolicy re-serialised compactly as AWS returns it (moto adds
 *   spaces, which the provider takes for a change on every plan). The content is moto's, untouched.
 * - SQS SetQueueAttributes without a Policy: the queue's current Policy is added to the call, since moto clears a
 *   Policy any such call leaves out and AWS keeps it (an update of a queue would otherwise drop its queue policy).
 */
export interface Front {
  /** `http://127.0.0.1:<port>`, for every endpoint of the provider. */
  readonly endpoint: string;
  /** Calls answered here instead of by moto, by operation. */
  readonly answered: Readonly<Record<string, number>>;
  /** Definitions this front refused, with the diagnostics (a break test expects one). */
  readonly refused: readonly string[];
  close(): Promise<void>;
}

const SFN_PREFIX = "AWSStepFunctions.";

/** moto's GetQueueAttributes answer with RedrivePolicy in AWS's compact form; anything unexpected passes unchanged. */
export function compactRedrivePolicy(body: string): string {
  try {
    const answer = JSON.parse(body) as { Attributes?: Record<string, string> };
    const policy = answer.Attributes?.RedrivePolicy;
    if (policy === undefined) return body;
    answer.Attributes!.RedrivePolicy = JSON.stringify(JSON.parse(policy));
    return JSON.stringify(answer);
  } catch {
    return body;
  }
}

/**
 * A SetQueueAttributes body with the queue's current Policy added when the call names none (moto would clear it);
 * undefined when nothing needs adding.
 */
async function keepingPolicy(upstream: string, body: Buffer): Promise<Buffer | undefined> {
  let input: { QueueUrl?: string; Attributes?: Record<string, string> };
  try {
    input = JSON.parse(body.toString("utf8")) as typeof input;
  } catch {
    return undefined;
  }
  if (!input.QueueUrl || input.Attributes === undefined || "Policy" in input.Attributes) return undefined;
  const current = (await motoCall(upstream, { service: "sqs", target: "AmazonSQS.GetQueueAttributes", body: { QueueUrl: input.QueueUrl, AttributeNames: ["Policy"] } })).json<{ Attributes?: { Policy?: string } }>();
  const policy = current.Attributes?.Policy;
  if (policy === undefined) return undefined;
  return Buffer.from(JSON.stringify({ ...input, Attributes: { ...input.Attributes, Policy: policy } }));
}

/** Sees every request before it is answered (the call recording); never changes it. */
export type RequestTap = (req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: Buffer }) => void;

export async function startFront(upstream: string, check: Check, tap?: RequestTap): Promise<Front> {
  const answered: Record<string, number> = {};
  const refused: string[] = [];
  const target = new URL(upstream);
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (received) => {
        tap?.({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body: received });
        const op = String(req.headers["x-amz-target"] ?? "");
        const kept = op === "AmazonSQS.SetQueueAttributes" ? await keepingPolicy(upstream, received) : undefined;
        if (kept) answered.SetQueueAttributes = (answered.SetQueueAttributes ?? 0) + 1;
        const body = kept ?? received;
        if (op === `${SFN_PREFIX}ValidateStateMachineDefinition`) {
          answered.ValidateStateMachineDefinition = (answered.ValidateStateMachineDefinition ?? 0) + 1;
          const answer = validateAnswer(body.toString("utf8"), check);
          if (answer.result === "FAIL") refused.push(JSON.stringify(answer.diagnostics));
          return replyJson(res, 200, answer);
        }
        if (op === `${SFN_PREFIX}ListStateMachineVersions`) {
          answered.ListStateMachineVersions = (answered.ListStateMachineVersions ?? 0) + 1;
          return replyJson(res, 200, { stateMachineVersions: [] });
        }
        const forward = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host, ...(kept ? { "content-length": String(kept.length) } : {}) } },
          (upstreamRes) => {
            if (op !== "AmazonSQS.GetQueueAttributes") {
              res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
              upstreamRes.pipe(res);
              return;
            }
            void readBody(upstreamRes).then((raw) => {
              const text = compactRedrivePolicy(raw.toString("utf8"));
              if (text !== raw.toString("utf8")) answered.GetQueueAttributes = (answered.GetQueueAttributes ?? 0) + 1;
              res.writeHead(upstreamRes.statusCode ?? 502, { ...upstreamRes.headers, "content-length": Buffer.byteLength(text) });
              res.end(text);
            });
          },
        );
        forward.on("error", (error) => replyJson(res, 502, { __type: "InternalFailure", message: `moto unreachable: ${error.message}` }));
        forward.end(body);
      })
      .catch(() => replyJson(res, 500, { __type: "InternalFailure", message: "could not read the request" }));
  });
  const endpoint = await listenOnLoopback(server);
  return {
    endpoint,
    answered,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
