import { PAYMENTS_FIELD_RULES_ENV } from "../../helpers/orders-contract";
import type { PaymentsHandler } from "../../../examples/payments/functions/create-handler";

/** The environment the infrastructure construct gives the function, pointed at a local DynamoDB. */
export function paymentsEnv(endpoint: string, tables: { idempotency: string; effects: string }) {
  return {
    IDEMPOTENCY_TABLE_NAME: tables.idempotency,
    EFFECTS_TABLE_NAME: tables.effects,
    IDEMPOTENCY_EXPIRES_AFTER_SECONDS: "3600",
    PAYLOAD_FIELDS: "amount,currency",
    PIPELINE_FIELD_RULES: PAYMENTS_FIELD_RULES_ENV,
    POWERTOOLS_SERVICE_NAME: "payments",
    POWERTOOLS_LOG_LEVEL: "SILENT",
    AWS_LAMBDA_FUNCTION_NAME: "payments-test",
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_DYNAMODB: endpoint,
    // Keeps the SDK's Node 20 notice off stderr, where the logging tests read log lines.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  } satisfies Record<string, string>;
}

/**
 * Loads a fresh copy of the deployed handler module (its own cold start) with `env` applied to
 * process.env first. The variables stay set: the SDK resolves the endpoint override per request.
 * Returns the previous values so the caller can restore them.
 */
export function loadPaymentsHandler(env: Record<string, string | undefined>): {
  handler: PaymentsHandler;
  restore: () => void;
} {
  const previous = applyEnv(env);
  let handler: PaymentsHandler | undefined;
  try {
    jest.isolateModules(() => {
      handler = (require("../../../examples/payments/functions/handler") as { handler: PaymentsHandler }).handler;
    });
  } catch (error) {
    applyEnv(previous);
    throw error;
  }
  return { handler: handler as PaymentsHandler, restore: () => applyEnv(previous) };
}

function applyEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const previous: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    previous[name] = process.env[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return previous;
}
