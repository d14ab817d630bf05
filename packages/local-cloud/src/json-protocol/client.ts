import http from "node:http";
import { UnsupportedCommandError, ServiceError } from "./errors";
import { signRequest, type SigningCredentials } from "./sigv4";

/** An AWS SDK v3 command as far as this client reads it: its class name names the operation. */
interface JsonCommand {
  readonly input: object;
}

interface JsonProtocolClientOptions {
  /** `http://127.0.0.1:<port>`, optionally with a path (the DynamoDB fault proxy's `/w/<caller>`). */
  readonly endpoint: string;
  readonly region: string;
  /** Signing name of the service, e.g. `dynamodb`, `sqs`. */
  readonly service: string;
  /** `X-Amz-Target` prefix, e.g. `DynamoDB_20120810`, `AmazonSQS`. */
  readonly targetPrefix: string;
  readonly credentials: SigningCredentials;
  /** Sockets kept per client (default 64). */
  readonly maxSockets?: number;
}

/**
 * A lean client for AWS JSON-protocol services (DynamoDB, SQS) with the AWS SDK v3 `send(command)` shape:
 * the command's input is posted as is (`application/x-amz-json-1.0`, SigV4-signed, `X-Amz-Target` from the
 * command's class name), the JSON answer comes back as the output with `$metadata`, an error answer is thrown as a
 * {@link ServiceError} named by its `__type`. No retries (the callers own their retry policy), no middleware, no
 * model-driven (de)serialization: JSON stays JSON, so binary attribute values stay base64 strings, as the wire
 * (and Step Functions' own integrations) carry them. It exists because the SDK's per-call CPU cost (~1.3 ms) was
 * the local cloud's largest cost after the emulators themselves.
 */
export class JsonProtocolClient {
  private readonly url: URL;
  private readonly agent: http.Agent;

  constructor(private readonly options: JsonProtocolClientOptions) {
    this.url = new URL(options.endpoint);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
  }

  async send<Output extends object = Record<string, unknown>>(command: JsonCommand, sendOptions: { abortSignal?: AbortSignal } = {}): Promise<Output & { $metadata: ServiceError["$metadata"] }> {
    const operation = operationOf(command);
    const body = JSON.stringify(command.input ?? {});
    const path = this.url.pathname || "/";
    const headers = signRequest(
      {
        method: "POST",
        host: this.url.host,
        path,
        headers: { "content-type": "application/x-amz-json-1.0", "x-amz-target": `${this.options.targetPrefix}.${operation}` },
        body,
        region: this.options.region,
        service: this.options.service,
      },
      this.options.credentials,
    );
    headers["content-length"] = String(Buffer.byteLength(body));
    const answer = await this.post(path, headers, body, sendOptions.abortSignal);
    const requestId = answer.requestId;
    let parsed: Record<string, unknown> = {};
    if (answer.body.length > 0) {
      try {
        parsed = JSON.parse(answer.body) as Record<string, unknown>;
      } catch {
        throw new ServiceError(answer.statusCode >= 500 ? "InternalFailure" : "SerializationException", `unparseable answer (HTTP ${answer.statusCode}): ${answer.body.slice(0, 200)}`, answer.statusCode, requestId, {});
      }
    }
    if (answer.statusCode >= 300) {
      const { __type, message, Message, ...fields } = parsed as { __type?: string; message?: string; Message?: string };
      // Like the SDK for services that kept their query-protocol codes (SQS): the `x-amzn-query-error` code names the error.
      const code = answer.queryError ?? String(__type ?? answer.errorType ?? `Http${answer.statusCode}`).split("#").pop()!.split(":")[0];
      throw new ServiceError(code, String(message ?? Message ?? code), answer.statusCode, requestId, fields);
    }
    return { ...(parsed as Output), $metadata: { httpStatusCode: answer.statusCode, requestId, attempts: 1, totalRetryDelay: 0 } };
  }

  destroy(): void {
    this.agent.destroy();
  }

  private post(path: string, headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<{ statusCode: number; body: string; requestId?: string; errorType?: string; queryError?: string }> {
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const request = http.request(
        { host: this.url.hostname, port: this.url.port, method: "POST", path, headers, agent: this.agent, signal },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              statusCode: response.statusCode ?? 0,
              body: Buffer.concat(chunks).toString("utf8"),
              requestId: header(response.headers["x-amzn-requestid"] ?? response.headers["x-amz-request-id"]),
              errorType: header(response.headers["x-amzn-errortype"]),
              queryError: header(response.headers["x-amzn-query-error"])?.split(";")[0] || undefined,
            }),
          );
          response.on("error", reject);
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `PutItemCommand` → `PutItem`. */
function operationOf(command: JsonCommand): string {
  const name = (command as { constructor?: { name?: string } }).constructor?.name ?? "";
  if (!name.endsWith("Command") || name === "Command") {
    throw new UnsupportedCommandError(`cannot tell the operation of ${name || "this object"}: pass an AWS SDK v3 command such as PutItemCommand`);
  }
  return name.slice(0, -"Command".length);
}
