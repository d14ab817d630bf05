/**
 * `arn:aws:states:::lambda:invoke` (and legacy `arn:aws:lambda:...:function:...` resources) through a
 * {@link LambdaInvoker}. A function error surfaces as its `errorType` with the error payload as cause;
 * service errors as `Lambda.<Exception>`.
 */
import { StatesError, StatesErrorName } from "../errors";
import { sdkMetadata } from "./aws-errors";
import { missingClient, requireObject } from "./requests";
import type { LambdaInvoker } from "../types";
import type { TaskCall, TaskHandler } from "./types";

function parsePayload(text: string): unknown {
  if (text === "") return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function functionError(payload: string): StatesError {
  let errorType = "Exception";
  try {
    const parsed = JSON.parse(payload) as { errorType?: unknown };
    if (parsed && typeof parsed.errorType === "string" && parsed.errorType) errorType = parsed.errorType;
  } catch {
    // a non-JSON error payload keeps the generic name
  }
  return new StatesError(errorType, payload);
}

function serviceError(err: unknown): StatesError {
  const e = (err ?? {}) as { name?: string; message?: string; $metadata?: { httpStatusCode?: number; requestId?: string } };
  const name = e.name && e.name !== "Error" ? e.name : undefined;
  if (!name) return new StatesError("Lambda.SdkClientException", `Unable to execute HTTP request: ${e.message ?? String(err)}`, { cause: err });
  const status = e.$metadata?.httpStatusCode ?? 500;
  return new StatesError(
    `Lambda.${name}`,
    `${e.message ?? name} (Service: AWSLambda; Status Code: ${status}; Error Code: ${name}; Request ID: ${e.$metadata?.requestId ?? ""}; Proxy: null)`,
    { cause: err },
  );
}

async function invoke(call: TaskCall, req: Parameters<LambdaInvoker>[0]) {
  const invoker = call.integrations.lambda;
  if (!invoker) throw missingClient(call.resourceArn, "integrations.lambda (a LambdaInvoker)", "no Lambda support; run it in the local cloud");
  let res: Awaited<ReturnType<LambdaInvoker>>;
  try {
    res = await invoker(req, call.signal);
  } catch (err) {
    if (call.signal.aborted) throw err;
    throw serviceError(err);
  }
  if (res.FunctionError) throw functionError(res.Payload);
  return res;
}

export function lambdaInvokeHandler(): TaskHandler {
  return {
    resourceType: "lambda",
    resource: "invoke",
    async invoke(parameters, call) {
      const p = requireObject(parameters, call.resourceArn);
      if (typeof p.FunctionName !== "string" || p.FunctionName === "") {
        throw new StatesError(StatesErrorName.Runtime, `The parameters of '${call.resourceArn}' need a FunctionName string.`);
      }
      const req: Parameters<LambdaInvoker>[0] = {
        FunctionName: p.FunctionName,
        Payload: JSON.stringify(p.Payload === undefined ? {} : p.Payload),
      };
      if (typeof p.InvocationType === "string") req.InvocationType = p.InvocationType;
      if (typeof p.Qualifier === "string") req.Qualifier = p.Qualifier;
      if (typeof p.ClientContext === "string") req.ClientContext = p.ClientContext;
      const res = await invoke(call, req);
      return {
        ExecutedVersion: res.ExecutedVersion ?? "$LATEST",
        Payload: parsePayload(res.Payload),
        ...sdkMetadata(undefined, "application/json"),
        StatusCode: res.StatusCode,
      };
    },
  };
}

/** Legacy resource form: the Lambda ARN itself; the state input is the payload and the result is the parsed payload. */
export function lambdaArnHandler(functionArn: string): TaskHandler {
  return {
    resourceType: "lambda",
    resource: functionArn,
    legacyLambda: true,
    async invoke(parameters, call) {
      const res = await invoke(call, { FunctionName: functionArn, Payload: JSON.stringify(parameters === undefined ? {} : parameters) });
      return parsePayload(res.Payload);
    },
  };
}
