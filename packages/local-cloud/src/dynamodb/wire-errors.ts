import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type { DynamoRequestInfo } from "../faults";

/** An HTTP answer ready to send. */
export interface WireResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/** The errors the proxy can inject, with DynamoDB's status code and message. */
const INJECTABLE: Record<string, { statusCode: number; message: string; reasons?: "Throttling" | "throttling" }> = {
  ProvisionedThroughputExceededException: {
    statusCode: 400,
    message:
      "The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.",
    reasons: "Throttling",
  },
  // The SDK model spells this member `throttlingReasons` (lower case t) on ThrottlingException only.
  ThrottlingException: { statusCode: 400, message: "Rate of requests exceeds the allowed throughput.", reasons: "throttling" },
  RequestLimitExceeded: {
    statusCode: 400,
    message: "Throughput exceeds the current throughput limit for your account. Please contact AWS Support at https://aws.amazon.com/support request a limit increase",
  },
  InternalServerError: { statusCode: 500, message: "Internal server error" },
};

const READ_OPERATIONS = new Set(["GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"]);

/**
 * DynamoDB's JSON-protocol error as it is on the wire: `__type` namespaced `com.amazonaws.dynamodb.v20120810#`,
 * `message`, JSON 1.0 content type, a request id and the CRC32 of the body (which DynamoDB always sends).
 */
export function dynamoErrorResponse(errorType: string, request: DynamoRequestInfo, region = "us-east-1"): WireResponse {
  const spec = INJECTABLE[errorType] ?? INJECTABLE.InternalServerError;
  const payload: Record<string, unknown> = {
    __type: `com.amazonaws.dynamodb.v20120810#${INJECTABLE[errorType] ? errorType : "InternalServerError"}`,
    message: spec?.message,
  };
  if (spec?.reasons !== undefined && request.tables.length > 0) {
    const kind = READ_OPERATIONS.has(request.operation) ? "Read" : "Write";
    payload[`${spec.reasons}Reasons`] = request.tables.map((table) => ({
      reason: `Table${kind}ProvisionedThroughputExceeded`,
      resource: `arn:aws:dynamodb:${region}:000000000000:table/${table}`,
    }));
  }
  const body = JSON.stringify(payload);
  return {
    statusCode: spec?.statusCode ?? 500,
    headers: {
      "Content-Type": "application/x-amz-json-1.0",
      "Content-Length": String(Buffer.byteLength(body)),
      "x-amzn-RequestId": requestId(),
      "x-amz-crc32": String(crc32(body)),
    },
    body,
  };
}

/** 52 upper-case alphanumerics, the shape of DynamoDB request ids. */
function requestId(): string {
  return randomBytes(39).toString("base64").toUpperCase().replace(/[+/=]/g, "0").slice(0, 52);
}
