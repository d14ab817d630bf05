import { OpsError, TargetError } from "./errors";

const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "ECONNRESET", "EHOSTUNREACH", "ENETUNREACH", "TimeoutError"]);
const CREDENTIALS = new Set([
  "CredentialsProviderError",
  "UnrecognizedClientException",
  "InvalidClientTokenId",
  "ExpiredToken",
  "ExpiredTokenException",
  "InvalidSignatureException",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "AccessDeniedException",
]);
const MISSING = new Set(["QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "ResourceNotFoundException", "StateMachineDoesNotExist"]);

/**
 * Turns an AWS SDK failure into one sentence for the operator: unreachable endpoints, credentials and missing
 * queues or tables are target problems (exit 3); anything else is an operational failure (exit 1).
 * `what` says what was being done, e.g. "reading the DLQ".
 */
export function describeAwsError(error: unknown, what: string, where: { service: "SQS" | "DynamoDB" | "CloudWatch" | "Step Functions"; endpoint?: string; resource?: string }): OpsError {
  if (error instanceof OpsError) return error;
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? err.name ?? "Error";
  const name = err.name ?? "Error";
  const at = where.endpoint ? `${where.service} at ${where.endpoint}` : `${where.service} (AWS default endpoint)`;
  const firstLine = (err.message ?? String(error)).split("\n")[0];
  if (UNREACHABLE.has(code) || UNREACHABLE.has(name) || /ECONNREFUSED|ENOTFOUND|socket hang up|connect ETIMEDOUT/.test(firstLine)) {
    return new TargetError(`cannot reach ${at} while ${what} (${code}): is the target running and the endpoint right?`, { cause: error });
  }
  if (CREDENTIALS.has(name) || CREDENTIALS.has(code)) {
    return new TargetError(`${at} refused the credentials while ${what} (${name}: ${firstLine}): check AWS_PROFILE / AWS credentials and the region`, { cause: error });
  }
  if (MISSING.has(name) || MISSING.has(code)) {
    return new TargetError(`${where.resource ?? "the resource"} does not exist at ${at} (${name}) while ${what}: do the outputs belong to this target and region?`, { cause: error });
  }
  return new OpsError(`${what} failed: ${name}: ${firstLine}`, { cause: error });
}

/** Runs one AWS call and rethrows its failure as an OpsError (see {@link describeAwsError}). */
export async function awsCall<T>(what: string, where: Parameters<typeof describeAwsError>[2], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw describeAwsError(error, what, where);
  }
}
