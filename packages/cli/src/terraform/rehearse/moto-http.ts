/**
 * Raw calls to moto for the gap probes (this project carries SDK clients only for SQS and DynamoDB). moto routes a
 * request by the service named in the Authorization header's credential scope and checks no signature.
 */
export interface MotoAnswer {
  readonly status: number;
  readonly text: string;
  json<T = Record<string, unknown>>(): T;
}

function authorization(service: string, region: string): string {
  return `AWS4-HMAC-SHA256 Credential=AKIAREHEARSAL0000000/20260101/${region}/${service}/aws4_request, SignedHeaders=host, Signature=0`;
}

export async function motoCall(
  endpoint: string,
  request: { service: string; region?: string; method?: string; path?: string; target?: string; body?: unknown; form?: Record<string, string> },
): Promise<MotoAnswer> {
  const headers: Record<string, string> = { authorization: authorization(request.service, request.region ?? "us-east-1") };
  let body: string | undefined;
  if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(request.form).toString();
  } else if (request.body !== undefined) {
    headers["content-type"] = request.target ? "application/x-amz-json-1.0" : "application/json";
    body = JSON.stringify(request.body);
  }
  if (request.target) headers["x-amz-target"] = request.target;
  const res = await fetch(`${endpoint}${request.path ?? "/"}`, { method: request.method ?? "POST", headers, body });
  const text = await res.text();
  return {
    status: res.status,
    text,
    json: <T>() => {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new Error(`moto answered ${res.status} with something that is not JSON: ${text.slice(0, 120)}`);
      }
    },
  };
}
