import { matchRoute, type RestRoute } from "./api-routes";
import { callResource, type IdentifiedCall } from "./call-resources";

/**
 * The AWS calls a rehearsal makes, as IAM sees them: each request the provider sends through the front is named by
 * its operation (from AWS's own protocols: `X-Amz-Target` for JSON, `Action=` for query, the path of an RPCv2 CBOR
 * request, the API model's routes for REST) and by the resource IAM authorizes it against. Calls AWS authorizes
 * without a request of their own (iam:PassRole when a role is handed to a service) are added where the request
 * carries the role.
 */
export interface RecordedCall {
  /** The rehearsal step: plan, apply, replan, change plan, change apply, teardown apply, destroy. */
  readonly phase: string;
  /** IAM's name: `sqs:CreateQueue`. */
  readonly action: string;
  /** The ARN IAM authorizes the call against, or `*` for an action without resource-level permissions. */
  readonly resource: string;
  /** Condition keys the request sets (`iam:PassedToService`), as pairs. */
  readonly context?: readonly (readonly [string, string])[];
  readonly count: number;
}

export interface HttpRequestSeen {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: Buffer;
}

/** Signing name → IAM service prefix, where they differ. */
const IAM_PREFIX = new Map([["monitoring", "cloudwatch"]]);


const SCOPE = /Credential=[^/]+\/\d{8}\/([^/]+)\/([^/]+)\/aws4_request/;

function header(req: HttpRequestSeen, name: string): string {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

function jsonParams(body: Buffer): Map<string, unknown> {
  if (body.length === 0) return new Map();
  try {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? new Map(Object.entries(parsed)) : new Map();
  } catch {
    return new Map();
  }
}

/** Names the operation of one signed request; undefined for a request that is not an AWS API call. */
function identify(req: HttpRequestSeen, routes: ReadonlyMap<string, readonly RestRoute[]>, decodeCbor: (body: Buffer) => Map<string, unknown>): IdentifiedCall | undefined {
  const scope = SCOPE.exec(header(req, "authorization"));
  if (!scope) return undefined;
  const [, region, service] = scope;
  const target = header(req, "x-amz-target");
  if (target) return { service, region, operation: target.slice(target.lastIndexOf(".") + 1), params: jsonParams(req.body) };
  const rpc = /^\/service\/[^/]+\/operation\/([^/?]+)/.exec(req.url);
  if (rpc) return { service, region, operation: rpc[1], params: decodeCbor(req.body) };
  if (header(req, "content-type").startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams(req.body.toString("utf8"));
    const action = form.get("Action");
    if (action) return { service, region, operation: action, params: new Map([...form.entries()]) };
  }
  const route = matchRoute(routes.get(service) ?? [], req.method, req.url);
  if (!route) return { service, region, operation: `UNKNOWN ${req.method} ${req.url.split("?")[0]}`, params: new Map() };
  return { service, region, operation: route.operation, params: new Map([...jsonParams(req.body), ...route.params]) };
}

/** Collects calls by phase, counting repeats. */
export class CallLog {
  phase = "plan";
  private readonly seen = new Map<string, { call: Omit<RecordedCall, "count">; count: number }>();

  constructor(
    private readonly account: () => string,
    private readonly routes: ReadonlyMap<string, readonly RestRoute[]>,
    private readonly decodeCbor: (body: Buffer) => Map<string, unknown>,
  ) {}

  /** Records one request the front saw. */
  see(req: HttpRequestSeen): void {
    const call = identify(req, this.routes, this.decodeCbor);
    if (!call) return;
    const prefix = IAM_PREFIX.get(call.service) ?? call.service;
    for (const authorized of callResource(call, this.account(), prefix)) {
      const entry = { phase: this.phase, ...authorized };
      const key = JSON.stringify(entry);
      const known = this.seen.get(key);
      if (known) known.count++;
      else this.seen.set(key, { call: entry, count: 1 });
    }
  }

  /** Every call in order of first appearance. */
  calls(): RecordedCall[] {
    return [...this.seen.values()].map(({ call, count }) => ({ ...call, count }));
  }
}
