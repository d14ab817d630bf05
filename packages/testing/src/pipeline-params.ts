import { effectiveRules } from "@effectively-once/contract";
import { ORDERS_FIELD_RULES } from "./orders-contract";
import type { PipelineDefinitionParams } from "@effectively-once/statemachines";

/** Render parameters of the pipeline state machine with literal names, for tests that run or inspect it. */
export const PIPELINE_TEST_PARAMS: PipelineDefinitionParams = {
  partition: "aws",
  ledgerTableName: "ledger",
  functionArn: "arn:aws:lambda:us-east-1:123456789012:function:charge",
  deadLetterQueueUrl: "http://127.0.0.1:1/123456789012/dlq",
  operation: "charge",
  keyExpression: "[tenantId, orderId]",
  fieldRules: effectiveRules(["tenantId", "orderId"], ["amount", "currency"], ORDERS_FIELD_RULES),
  payloadFields: ["amount", "currency"],
  leaseSeconds: 60,
  retentionSeconds: 604800,
  messageRetentionSeconds: 345600,
  executionTimeoutSeconds: 60,
  invokeTimeoutSeconds: 15,
  lambdaRetries: 2,
  maxConcurrency: 10,
  permanentErrors: ["ValidationError"],
  conflictErrors: ["IdempotencyValidationError"],
  ledgerRetry: { intervalSeconds: 1, maxAttempts: 3, backoffRate: 2 },
};
