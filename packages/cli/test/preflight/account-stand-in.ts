/**
 * A local stand-in for the read-only AWS APIs the preflight calls, answering on the wire as AWS does (STS's query
 * protocol and XML, Lambda's REST paths, Service Quotas' JSON protocol), so the real AWS SDK clients talk to it
 * exactly as they talk to AWS (the name, IAM and Pipes APIs: stand-in-answers.ts). It records every operation it was
 * asked.
 */
import { createServer } from "node:http";
import { listenOnLoopback, readBody, replyJson } from "../../src/terraform/json-http";
import { answerJson, answerQuery, answerRest, type NamesAndIamState } from "./stand-in-answers";

export interface AccountState extends NamesAndIamState {
  readonly concurrentExecutions: number;
  readonly unreservedConcurrentExecutions: number;
  /** Function name → its reservation (null: exists without one). Absent: the function does not exist. */
  readonly functions: ReadonlyMap<string, number | null>;
  /** Service code → quotas; absent: Service Quotas does not list the service. */
  readonly quotas: ReadonlyMap<string, readonly { code: string; name: string; value: number }[]>;
}

export async function startAccountStandIn(state: AccountState): Promise<{ endpoint: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((raw) => {
      const body = raw.toString("utf8");
      const url = req.url ?? "/";
      const target = String(req.headers["x-amz-target"] ?? "");
      if (req.method === "POST" && !target && answerQuery(body, res, state, seen)) return;
      if (target && answerJson(target, body, res, state, seen)) return;
      if (answerRest(req, res, state, seen)) return;
      if (req.method === "GET" && url === "/2016-08-19/account-settings") {
        seen.push("lambda:GetAccountSettings");
        return replyJson(res, 200, { AccountLimit: { ConcurrentExecutions: state.concurrentExecutions, UnreservedConcurrentExecutions: state.unreservedConcurrentExecutions }, AccountUsage: { FunctionCount: state.functions.size } });
      }
      const concurrency = /^\/2019-09-30\/functions\/([^/]+)\/concurrency$/.exec(url);
      if (req.method === "GET" && concurrency) {
        seen.push(`lambda:GetFunctionConcurrency ${decodeURIComponent(concurrency[1])}`);
        const name = decodeURIComponent(concurrency[1]);
        if (!state.functions.has(name)) {
          res.writeHead(404, { "content-type": "application/json", "x-amzn-errortype": "ResourceNotFoundException" });
          return res.end(JSON.stringify({ Type: "User", message: `Function not found: arn:aws:lambda:us-east-1:000000000000:function:${name}` }));
        }
        const reserved = state.functions.get(name);
        return replyJson(res, 200, reserved === null ? {} : { ReservedConcurrentExecutions: reserved });
      }
      if (target === "ServiceQuotasV20190624.ListServiceQuotas") {
        const code = (JSON.parse(body) as { ServiceCode: string }).ServiceCode;
        seen.push(`servicequotas:ListServiceQuotas ${code}`);
        const quotas = state.quotas.get(code);
        if (!quotas) return replyJson(res, 400, { __type: "NoSuchResourceException", message: `The request failed because the specified service does not exist: ${code}` });
        return replyJson(res, 200, { Quotas: quotas.map((q) => ({ ServiceCode: code, QuotaCode: q.code, QuotaName: q.name, Value: q.value, Adjustable: true })) });
      }
      seen.push(`UNEXPECTED ${req.method} ${url} ${target}`);
      replyJson(res, 400, { __type: "UnknownOperationException", message: `the stand-in does not answer ${req.method} ${url} ${target}` });
    });
  });
  const endpoint = await listenOnLoopback(server);
  return { endpoint, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
