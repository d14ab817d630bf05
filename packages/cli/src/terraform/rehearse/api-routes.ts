import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { RehearsalError } from "./errors";

/**
 * The REST routes of AWS's own API models (botocore's `data/<service>/<date>/service-2.json[.gz]`), so a recorded
 * REST request (Lambda, Pipes) is named by the operation AWS's SDKs call, not by a guess. botocore is always there
 * when the rehearsal runs: moto is built on it.
 */
export interface RestRoute {
  readonly operation: string;
  readonly method: string;
  /** Path segments: a literal, `{Name}` (one segment) or `{Name+}` (the rest of the path). */
  readonly segments: readonly string[];
  /** Query keys the route's URI requires (`/path?versions`). */
  readonly query: readonly string[];
}

interface ServiceModel {
  readonly operations: Readonly<Record<string, { readonly http?: { readonly method: string; readonly requestUri: string } }>>;
}

/** botocore's folder, from the python that has it. */
export function botocoreDir(python = process.env.PYTHON ?? "python3"): string {
  try {
    return execFileSync(python, ["-c", "import botocore,os;print(os.path.dirname(botocore.__file__))"], { encoding: "utf8" }).trim();
  } catch (error) {
    throw new RehearsalError(`recording calls needs botocore's API models (moto's own dependency): ${python} cannot import botocore (${(error as Error).message}); set PYTHON to moto's python`, { cause: error });
  }
}

function readModel(dir: string, service: string): ServiceModel {
  const base = join(dir, "data", service);
  if (!existsSync(base)) throw new RehearsalError(`botocore at ${dir} has no model for ${service}`);
  const version = readdirSync(base).sort().at(-1)!;
  const plain = join(base, version, "service-2.json");
  const text = existsSync(plain) ? readFileSync(plain, "utf8") : gunzipSync(readFileSync(`${plain}.gz`)).toString("utf8");
  return JSON.parse(text) as ServiceModel;
}

/** The REST routes of one botocore service (`lambda`, `pipes`). */
export function restRoutes(dir: string, service: string): RestRoute[] {
  return Object.entries(readModel(dir, service).operations).flatMap(([operation, op]) => {
    if (!op.http) return [];
    const [path, query = ""] = op.http.requestUri.split("?");
    return [{ operation, method: op.http.method, segments: path.split("/").filter(Boolean), query: query.split("&").filter(Boolean).map((q) => q.split("=")[0]) }];
  });
}

/** The operation a REST request calls and its path parameters; the most literal route wins (`/functions/{F}/versions` over `/functions/{F}`). */
export function matchRoute(routes: readonly RestRoute[], method: string, url: string): { operation: string; params: Map<string, string> } | undefined {
  const parsed = new URL(url, "http://local");
  const parts = parsed.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  let best: { operation: string; params: Map<string, string>; literals: number } | undefined;
  for (const route of routes) {
    if (route.method !== method || !route.query.every((q) => parsed.searchParams.has(q))) continue;
    const params = new Map<string, string>();
    let literals = 0;
    let ok = true;
    for (let i = 0; i < route.segments.length && ok; i++) {
      const segment = route.segments[i];
      const param = /^\{(\w+)(\+?)\}$/.exec(segment);
      if (!param) {
        ok = parts[i] === segment;
        literals++;
      } else if (param[2] === "+") {
        params.set(param[1], parts.slice(i).join("/"));
        i = route.segments.length;
        if (parts.length <= i - 1) ok = false;
      } else if (parts[i] === undefined) ok = false;
      else params.set(param[1], parts[i]);
    }
    const greedy = route.segments.some((s) => s.endsWith("+}"));
    if (!ok || (!greedy && parts.length !== route.segments.length)) continue;
    const score = literals * 10 + route.query.length;
    if (!best || score > best.literals) best = { operation: route.operation, params, literals: score };
  }
  return best && { operation: best.operation, params: best.params };
}
