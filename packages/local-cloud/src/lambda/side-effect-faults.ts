import type { DynamoFaultProxy } from "../dynamodb";
import { ProxyVerdict } from "../dynamodb";
import type { DynamoRequestInfo, FaultPlan, FaultTiming, LambdaFaultDecision } from "../faults";
import { exitPayload, injectedFailurePayload } from "./error-payloads";
import type { ExecutionEnvironment } from "./execution-environment";

/**
 * Lets fault rules strike at a function's side effect, identified on the wire: each environment talks to
 * DynamoDB through its own proxy path, so a request tells which invocation sent it.
 *
 *   before: the matching request is stopped at the proxy; the table never sees it.
 *   after:  the request reached the table (HTTP 200); its answer is stopped before the handler gets it.
 *
 * crash = the environment dies (Runtime.ExitError); fail = the invocation returns an error and the environment
 * is discarded (its handler is mid-flight); hang = no answer, so the invocation times out (Sandbox.Timedout).
 */
export function attachSideEffectFaults(
  proxy: DynamoFaultProxy,
  plan: FaultPlan,
  environments: Map<string, ExecutionEnvironment>,
): () => void {
  async function decide(caller: string | undefined, request: DynamoRequestInfo, when: FaultTiming): Promise<ProxyVerdict> {
    const environment = caller === undefined ? undefined : environments.get(caller);
    if (!environment) return ProxyVerdict.Forward; // not a Lambda environment (or one already gone)
    const requestId = environment.currentRequestId;
    if (!environment.alive) return ProxyVerdict.Drop;
    if (requestId === undefined) return ProxyVerdict.Forward; // stray work after the invocation returned
    const decision = plan.decideLambda({ functionName: environment.functionName, when, request });
    return decision ? strike(environment, requestId, decision) : ProxyVerdict.Forward;
  }

  return proxy.addHooks({
    onRequest: ({ caller, request }) => decide(caller, request, "before"),
    onResponse: ({ caller, request, statusCode, injected }) =>
      statusCode === 200 && !injected ? decide(caller, request, "after") : ProxyVerdict.Forward,
  });
}

async function strike(environment: ExecutionEnvironment, requestId: string, decision: LambdaFaultDecision): Promise<ProxyVerdict> {
  switch (decision.action) {
    case "crash":
      await environment.kill({ kind: "error", error: exitPayload(requestId, { signal: "killed" }), discard: true, cause: "crash" });
      return ProxyVerdict.Drop;
    case "fail":
      await environment.kill({ kind: "error", error: injectedFailurePayload(decision), discard: true, cause: "injected" });
      return ProxyVerdict.Drop;
    case "hang":
      return ProxyVerdict.Hold; // the environment's own timeout ends the invocation
    default:
      return ProxyVerdict.Forward;
  }
}
