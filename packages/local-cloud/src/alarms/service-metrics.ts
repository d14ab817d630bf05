/**
 * The metrics the other local services publish as they run, in CloudWatch's namespaces and dimensions: Lambda
 * (Invocations, Errors, Throttles, Duration per FunctionName), Step Functions (ExecutionsStarted/Succeeded/Failed/
 * TimedOut per StateMachineArn), EventBridge Pipes (Invocations, ExecutionThrottled, ExecutionFailed,
 * ExecutionPartiallyFailed, TargetStageFailed per PipeName) and the counts of the stack's log metric filters.
 * DynamoDB's throttle and system-error metrics are not counted locally (alarms/README.md).
 */
import type { PipeEvent } from "../pipes";
import type { ExecutionResult, LambdaInvoker as Invoke } from "../stepfunctions";
import type { MetricStore } from "./metric-store";

/** The function's name from a name, ARN or `name:qualifier`. */
function functionNameOf(ref: string): string {
  const afterArn = ref.includes(":function:") ? ref.slice(ref.indexOf(":function:") + ":function:".length) : ref;
  return afterArn.split(":")[0];
}

/** `invoke`, counted: every call is an invocation or a throttle; a function error is an error; duration in ms. */
export function countedInvoke(store: MetricStore, invoke: Invoke): Invoke {
  return async (req, signal) => {
    const dimensions: [string, string][] = [["FunctionName", functionNameOf(req.FunctionName)]];
    const put = (metricName: string, value: number, at = Date.now()) => store.put({ namespace: "AWS/Lambda", metricName, dimensions, value, at });
    const started = Date.now();
    try {
      const response = await invoke(req, signal);
      put("Invocations", 1, started);
      put("Errors", response.FunctionError ? 1 : 0, started);
      put("Duration", Date.now() - started, started);
      return response;
    } catch (error) {
      if ((error as { name?: string }).name === "TooManyRequestsException") put("Throttles", 1, started);
      throw error;
    }
  };
}

/** Step Functions' execution metrics of one finished execution. */
export function countExecution(store: MetricStore, run: ExecutionResult): void {
  // arn:<p>:states:<r>:<a>:express:<machine>:<execution> → the machine's ARN.
  const parts = run.executionArn.split(":");
  const stateMachineArn = [...parts.slice(0, 5), "stateMachine", parts[6]].join(":");
  const at = run.stopDate.getTime();
  const put = (metricName: string) => store.put({ namespace: "AWS/States", metricName, dimensions: [["StateMachineArn", stateMachineArn]], value: 1, at });
  put("ExecutionsStarted");
  put(run.status === "SUCCEEDED" ? "ExecutionsSucceeded" : run.status === "TIMED_OUT" ? "ExecutionsTimedOut" : run.status === "ABORTED" ? "ExecutionsAborted" : "ExecutionsFailed");
}

/** A listener of the pipe runners' events that publishes the pipe's metrics. */
export function pipeMetricsListener(store: MetricStore): (event: PipeEvent) => void {
  const succeeded = new Set<string>();
  return (event) => {
    const put = (metricName: string) => store.put({ namespace: "AWS/EventBridge/Pipes", metricName, dimensions: [["PipeName", event.pipe]], value: 1, at: event.at });
    switch (event.type) {
      case "execution-started":
        return put("Invocations");
      case "target-error":
        return put(event.throttled ? "ExecutionThrottled" : "TargetStageFailed");
      case "execution-finished":
        if (event.status === "SUCCEEDED") {
          succeeded.add(event.batchId);
          return;
        }
        put("TargetStageFailed");
        put("ExecutionFailed");
        return;
      case "invalid-response":
        return put("ExecutionFailed");
      case "batch-completed":
        // Some records retried by the target's own answer (batchItemFailures): a partial failure.
        if (event.retried > 0 && succeeded.has(event.batchId)) put("ExecutionPartiallyFailed");
        succeeded.delete(event.batchId);
        return;
      default:
        return;
    }
  };
}
