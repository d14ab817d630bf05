/**
 * The downstream function in the simulation: the app's own code (`createPipelineHandler` around the handler options
 * its `simulation` names, what its deployed `handler.ts` wires up), Powertools and the AWS SDK included, in process.
 * Its DynamoDB client is a real SDK client served by the simulated store; its time is the virtual clock (see
 * clock/determinism.ts). The invoker
 * answers as Lambda's Invoke API does: function errors as payloads, service errors thrown, timeouts as
 * `Sandbox.Timedout`, a dying runtime as `Runtime.ExitError` (the local cloud's own error payloads).
 */
import { Logger } from "@aws-lambda-powertools/logger";
import type { Context } from "aws-lambda";
import { createPipelineHandler, type PipelineHandlerOptions } from "@effectively-once/functions";
import { readPipelineConfig } from "@effectively-once/functions";
import { exitPayload, timeoutPayload } from "@effectively-once/local-cloud/emulators";
import type { LambdaInvoker } from "@effectively-once/local-cloud/emulators";
import type { SimDynamo } from "../world/dynamo";
import { FaultKind } from "../scenario/shape";
import type { VirtualClock } from "../clock/virtual-clock";
import { batchInvoker, type BatchRecord } from "./batch";

function hashOf(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

export interface FunctionFaults {
  /** The fault for this invocation of the copy `messageId`, with the attempt it hits (1 = the first), or undefined. */
  decide(messageId: string): { readonly kind: FaultKind; readonly attempt: number } | undefined;
  /** Characters the side effect's result carries extra for this invocation (an oversize result), 0 for none. */
  resultPad(messageId: string): number;
  /** A batch invocation died or timed out after this copy's record ran, through another record's fault. */
  batchRerun?(messageId: string): void;
}

export function createSimFunction(options: {
  clock: VirtualClock;
  dynamo: SimDynamo;
  environment: Record<string, string>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any payload, result and resources
  handlerOptions: PipelineHandlerOptions<any, any, any>;
  timeoutSeconds: number;
  /** Added to each copy's hash when choosing its transient error names (the scenario's seed). */
  blipOffset: number;
  delay: () => Promise<void>;
  faults: FunctionFaults;
  onInvoke: () => void;
  /** Called when an invocation reaches the handler (after the faults that stop it before). */
  onHandler: (messageId: string) => void;
  /** Called when the side effect starts, with its event and when its invocation reached the handler. */
  onSideEffect?: (event: { readonly messageId: string; readonly businessKey?: unknown }, runStartedAt: number) => void;
}): LambdaInvoker {
  const { clock } = options;
  const config = readPipelineConfig(options.environment);
  const functionName = options.environment.AWS_LAMBDA_FUNCTION_NAME;
  // The side effect applies, then returns a result padded as the fault says: the wrapper must bound it.
  const effect = options.handlerOptions.sideEffect;
  /** Request id → when that invocation reached the handler. */
  const runStarts = new Map<string, number>();
  const handlerOptions = {
    ...options.handlerOptions,
    sideEffect: async (event: { messageId: string }, context: { lambda?: Context }) => {
      options.onSideEffect?.(event, runStarts.get(context.lambda?.awsRequestId ?? "") ?? clock.now());
      const result = (await effect(event as never, context as never)) as unknown;
      const pad = options.faults.resultPad(String(event.messageId));
      if (pad === 0) return result;
      return result !== null && typeof result === "object" ? { ...result, padding: "r".repeat(pad) } : { result, padding: "r".repeat(pad) };
    },
  };
  const handler = createPipelineHandler(handlerOptions, {
    env: options.environment,
    dynamoDb: options.dynamo.sdkClient("fn"),
    logger: new Logger({ serviceName: config.serviceName, logLevel: "SILENT" }),
  });
  let requests = 0;
  // The Lambda service errors Step Functions retries (no name: the SDK got no answer).
  const BLIPS = ["TooManyRequestsException", "ServiceException", "AWSLambdaException", "ClientExecutionTimeoutException", ""];
  /** The Lambda context of one invocation, its deadline on the virtual clock. */
  const contextOf = (requestId: string, functionArn: string): Context => {
    const deadline = clock.now() + options.timeoutSeconds * 1000;
    return {
      functionName,
      functionVersion: "$LATEST",
      invokedFunctionArn: functionArn,
      memoryLimitInMB: "256",
      awsRequestId: requestId,
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: "sim",
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - clock.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    } as Context;
  };
  const invokeBatch = batchInvoker({ clock, timeoutSeconds: options.timeoutSeconds, faults: options.faults, delay: options.delay, onHandler: options.onHandler, handler, contextOf, runStarts });
  return async (req) => {
    options.onInvoke();
    const requestId = `req-${++requests}`;
    const event = JSON.parse(req.Payload) as { messageId?: string; records?: unknown };
    if (Array.isArray(event.records)) return invokeBatch(requestId, req.FunctionName, event.records as BatchRecord[]);
    const decided = options.faults.decide(String(event.messageId));
    const fault = decided?.kind;
    await options.delay();
    if (decided && fault === FaultKind.FnBlip) {
      // Each copy meets its own run of names (by its id and the scenario's seed), one per blipped attempt.
      const name = BLIPS[(Math.abs(hashOf(String(event.messageId))) + options.blipOffset + decided.attempt - 1) % BLIPS.length];
      throw name ? Object.assign(new Error(`${name} (injected, transient)`), { name, $metadata: { httpStatusCode: 500 } }) : new Error("socket hang up (injected)");
    }
    if (fault === FaultKind.FnThrottle) {
      throw Object.assign(new Error("Rate Exceeded."), { name: "TooManyRequestsException", $metadata: { httpStatusCode: 429 } });
    }
    const died = { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(exitPayload(requestId, { code: 1 })) };
    if (fault === FaultKind.FnCrashBefore) return died;
    if (fault === FaultKind.FnHang || fault === FaultKind.FnTimeout) {
      await clock.sleep(options.timeoutSeconds * 1000);
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(timeoutPayload(requestId, options.timeoutSeconds)) };
    }
    options.onHandler(String(event.messageId));
    runStarts.set(requestId, clock.now());
    const context = contextOf(requestId, req.FunctionName);
    const timer = new AbortController();
    const timedOut = clock.sleep(options.timeoutSeconds * 1000, timer.signal).then(
      () => "timeout" as const,
      () => "cancelled" as const,
    );
    const ran = handler(event, context).then(
      (value) => ({ ok: true as const, value }),
      (error: Error) => ({ ok: false as const, error }),
    );
    const first = await Promise.race([ran, timedOut]);
    timer.abort();
    if (first === "timeout" || first === "cancelled") {
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify(timeoutPayload(requestId, options.timeoutSeconds)) };
    }
    if (fault === FaultKind.FnCrashAfter) return died;
    if (!first.ok) {
      return { StatusCode: 200, FunctionError: "Unhandled", Payload: JSON.stringify({ errorType: first.error.name, errorMessage: first.error.message, trace: [] }) };
    }
    return { StatusCode: 200, Payload: JSON.stringify(first.value) };
  };
}
