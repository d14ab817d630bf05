import { randomUUID } from "node:crypto";
import type { Context } from "aws-lambda";

/** A Lambda-shaped context, as the runtime passes it; `remainingMs` is what Powertools reads. */
export function lambdaContext(functionName: string, remainingMs = 30_000): Context {
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "256",
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "2025/01/01/[$LATEST]local",
    getRemainingTimeInMillis: () => remainingMs,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
